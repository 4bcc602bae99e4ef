package dev.framewire.core;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rules of core's layout (docs/ARCHITECTURE.md, "Packages and layers"), checked on every build:
 * <ul>
 *   <li>no type under {@code dev.framewire.core.internal} names {@code Graph} or another facade type
 *       of the API ({@link #FACADE}): the runtime gets what it needs through constructors and the
 *       small interfaces of its own layers, never a back-reference to the facade;</li>
 *   <li>no public or protected member of an exported type names a type of an internal package;</li>
 *   <li>the internal packages form layers, {@link #LAYERS} from the bottom, and an internal type
 *       names types of its own layer and the layers below it only. The references that still point
 *       up are listed in {@link #UPWARD}, each the edge the redesign has not cut yet: a new one fails
 *       the build, and so does an entry that no longer occurs (the list only shrinks).</li>
 * </ul>
 * The first and third rules read the sources (comments and string literals left out), so a
 * reference only in javadoc does not count; the second reads the compiled API by reflection.
 */
class ArchitectureTest
{
    private static final Path MAIN = Path.of("src/main/java/dev/framewire/core");

    /**
     * The internal packages from the bottom layer to the top one. {@code log} (rate-limited lines,
     * redaction) names no other internal package: the bottom, so every layer may log through it.
     */
    static final List<String> LAYERS = List.of("log", "queue", "stream", "handler", "node", "sched", "run");

    /** API types that sit above the runtime (they hold a run, or are made by the facade). */
    static final Set<String> FACADE = Set.of("Graph", "GraphInputHandle", "OutputPoller", "GraphStats", "GraphAnalysis");

    /**
     * The upward references not cut yet, as "package/Type -> package.Type": the per-packet web of
     * queue, output stream, node and worker (see docs/ARCHITECTURE.md, "What is not cut yet").
     */
    static final Set<String> UPWARD = Set.of(
        // an output stream knows its producing node (and, through it, the workers)
        "stream/OutputStream -> node.Node");

    private static final Pattern INTERNAL_REF = Pattern.compile("dev\\.framewire\\.core\\.internal\\.(\\w+)\\.(\\w+)");

    @Test
    void noInternalTypeNamesTheFacade() throws IOException
    {
        final List<String> found = new ArrayList<>();
        for (final Path file : javaFiles(MAIN.resolve("internal")))
        {
            final String code = code(Files.readString(file));
            for (final String facade : FACADE)
            {
                if (Pattern.compile("\\b" + facade + "\\b").matcher(code).find())
                {
                    found.add(MAIN.relativize(file) + " names " + facade);
                }
            }
        }
        assertEquals(List.of(), found, "the runtime gets what it needs through constructors, not from the facade");
    }

    @Test
    void layersPointDown() throws IOException
    {
        final Set<String> upward = new TreeSet<>();
        int edges = 0;
        for (final String layer : LAYERS)
        {
            for (final Path file : javaFiles(MAIN.resolve("internal").resolve(layer)))
            {
                final String type = layer + "/" + file.getFileName().toString().replace(".java", "");
                final Matcher m = INTERNAL_REF.matcher(code(Files.readString(file)));
                while (m.find())
                {
                    final int to = LAYERS.indexOf(m.group(1));
                    assertTrue(to >= 0, type + " names " + m.group() + ", in no layer of " + LAYERS);
                    edges++;
                    if (to > LAYERS.indexOf(layer))
                    {
                        upward.add(type + " -> " + m.group(1) + "." + m.group(2));
                    }
                }
            }
        }
        assertTrue(edges > 50, "the scan found the runtime's imports: " + edges);
        final Set<String> allowed = new TreeSet<>(UPWARD);
        final Set<String> added = new TreeSet<>(upward);
        added.removeAll(allowed);
        final Set<String> gone = new TreeSet<>(allowed);
        gone.removeAll(upward);
        assertEquals(Set.of(), added, "references that point up a layer: cut them with an interface the lower layer owns");
        assertEquals(Set.of(), gone, "cut, so take them off ArchitectureTest.UPWARD");
    }

    @Test
    void exportedTypesExposeNoInternalType() throws Exception
    {
        final List<String> leaks = new ArrayList<>();
        int checked = 0;
        for (final String pkg : List.of("", "calculators", "calculators/image", "calculators/video", "journal"))
        {
            final Path dir = pkg.isEmpty() ? MAIN : MAIN.resolve(pkg);
            try (Stream<Path> files = Files.list(dir))
            {
                for (final Path file : files.filter(f -> f.toString().endsWith(".java")).collect(Collectors.toList()))
                {
                    final String name = file.getFileName().toString().replace(".java", "");
                    if (name.equals("package-info"))
                    {
                        continue;
                    }
                    final String binary = "dev.framewire.core." + (pkg.isEmpty() ? "" : pkg.replace('/', '.') + ".") + name;
                    checked += check(Class.forName(binary), leaks);
                }
            }
        }
        assertTrue(checked > 100, "public members checked: " + checked);
        assertEquals(List.of(), leaks, "public API naming the runtime");
    }

    /** Checks a type's public and protected members and its nested types; returns how many it checked. */
    private static int check(final Class<?> type, final List<String> leaks)
    {
        if (!Modifier.isPublic(type.getModifiers()))
        {
            return 0;
        }
        int checked = 1;
        leak(type.getName() + " extends", type.getGenericSuperclass(), leaks);
        for (final Type t : type.getGenericInterfaces())
        {
            leak(type.getName() + " implements", t, leaks);
        }
        for (final Field f : type.getDeclaredFields())
        {
            if (visible(f.getModifiers()))
            {
                checked++;
                leak(type.getName() + "." + f.getName(), f.getGenericType(), leaks);
            }
        }
        for (final Method m : type.getDeclaredMethods())
        {
            if (visible(m.getModifiers()) && !m.isSynthetic())
            {
                checked++;
                leak(type.getName() + "." + m.getName() + "()", m.getGenericReturnType(), leaks);
                for (final Type p : m.getGenericParameterTypes())
                {
                    leak(type.getName() + "." + m.getName() + "(...)", p, leaks);
                }
            }
        }
        for (final Constructor<?> c : type.getDeclaredConstructors())
        {
            if (visible(c.getModifiers()))
            {
                checked++;
                for (final Type p : c.getGenericParameterTypes())
                {
                    leak(type.getName() + "(...)", p, leaks);
                }
            }
        }
        for (final Class<?> nested : type.getDeclaredClasses())
        {
            checked += check(nested, leaks);
        }
        return checked;
    }

    private static boolean visible(final int modifiers)
    {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    private static void leak(final String where, final Type type, final List<String> leaks)
    {
        if (type instanceof Class)
        {
            Class<?> c = (Class<?>)type;
            while (c.isArray())
            {
                c = c.getComponentType();
            }
            if (c.getName().startsWith("dev.framewire.core.internal."))
            {
                leaks.add(where + " names " + c.getName());
            }
        }
        else if (type instanceof ParameterizedType)
        {
            leak(where, ((ParameterizedType)type).getRawType(), leaks);
            for (final Type arg : ((ParameterizedType)type).getActualTypeArguments())
            {
                leak(where, arg, leaks);
            }
        }
        else if (type instanceof WildcardType)
        {
            for (final Type bound : ((WildcardType)type).getUpperBounds())
            {
                leak(where, bound, leaks);
            }
            for (final Type bound : ((WildcardType)type).getLowerBounds())
            {
                leak(where, bound, leaks);
            }
        }
    }

    private static List<Path> javaFiles(final Path dir) throws IOException
    {
        try (Stream<Path> files = Files.walk(dir))
        {
            return files.filter(f -> f.toString().endsWith(".java")).sorted().collect(Collectors.toList());
        }
    }

    /** The source without its comments and the insides of its string and char literals. */
    static String code(final String source)
    {
        final StringBuilder sb = new StringBuilder(source.length());
        int i = 0;
        final int n = source.length();
        while (i < n)
        {
            final char c = source.charAt(i);
            if (c == '/' && i + 1 < n && source.charAt(i + 1) == '/')
            {
                while (i < n && source.charAt(i) != '\n')
                {
                    i++;
                }
            }
            else if (c == '/' && i + 1 < n && source.charAt(i + 1) == '*')
            {
                final int end = source.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
                sb.append(' ');
            }
            else if (c == '"' || c == '\'')
            {
                sb.append(c);
                i++;
                while (i < n && source.charAt(i) != c)
                {
                    i += source.charAt(i) == '\\' ? 2 : 1;
                }
                sb.append(c);
                i++;
            }
            else
            {
                sb.append(c);
                i++;
            }
        }
        return sb.toString();
    }
}
