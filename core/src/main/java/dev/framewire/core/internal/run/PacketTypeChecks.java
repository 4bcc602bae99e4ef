package dev.framewire.core.internal.run;

import dev.framewire.core.Contract;
import dev.framewire.core.internal.stream.StreamSpec;

import java.util.Map;

/**
 * The packet types of connected ports, checked at validation (MediaPipe's {@code Set<T>} /
 * {@code SetAny} in {@code GetContract}, checked by {@code ValidatedGraphConfig}): for every stream
 * from a node's output to a node's input, the producer's declared class must be one the consumer's
 * declared class accepts. An undeclared port, or {@code Object.class}, is "any" and matches
 * everything; {@code long}/{@code Long} and {@code double}/{@code Double} are the same type.
 *
 * <p>Threading: stateless; runs on the validating thread.
 */
final class PacketTypeChecks
{
    private PacketTypeChecks()
    {
    }

    /** Adds to the plan's errors one line per mismatched connection. */
    static void check(final GraphPlan plan)
    {
        for (int i = 0; i < plan.nodeCount; i++)
        {
            final Contract consumer = plan.contracts[i];
            if (consumer == null || consumer.inputTypes().isEmpty())
            {
                continue;
            }
            for (final StreamSpec in : plan.inputSpecs[i])
            {
                final Integer producer = in == null ? null : plan.producers.get(in.name);
                if (producer == null || producer < 0 || plan.contracts[producer] == null)
                {
                    continue; // graph inputs carry any packet
                }
                final Class<?> accepted = typeOf(consumer.inputTypes(), in);
                for (final StreamSpec out : plan.outputSpecs[producer])
                {
                    if (out == null || !out.name.equals(in.name))
                    {
                        continue;
                    }
                    final Class<?> given = typeOf(plan.contracts[producer].outputTypes(), out);
                    if (!matches(given, accepted))
                    {
                        plan.errors.add("stream '" + in.name + "': output " + port(out) + " of node '" +
                            plan.config.nodes().get(producer).name() + "' carries " + name(given) + " but input " +
                            port(in) + " of node '" + plan.config.nodes().get(i).name() + "' takes " + name(accepted) +
                            "; valid is a producer of " + name(accepted) + " (or a subtype), or a port declared any " +
                            "(Object)");
                    }
                }
            }
        }
    }

    /** A port's declared type: {@code TAG:index} or {@code :index}, then {@code TAG}, then {@code *}, else any. */
    static Class<?> typeOf(final Map<String, Class<?>> declared, final StreamSpec spec)
    {
        if (declared.isEmpty())
        {
            return Object.class;
        }
        Class<?> type = declared.get(spec.tag + ":" + spec.index);
        if (type == null && !spec.tag.isEmpty())
        {
            type = declared.get(spec.tag);
        }
        if (type == null)
        {
            type = declared.get("*");
        }
        return type == null ? Object.class : type;
    }

    /** Whether packets of {@code given} may go to a port taking {@code accepted}. */
    static boolean matches(final Class<?> given, final Class<?> accepted)
    {
        if (given == Object.class || accepted == Object.class)
        {
            return true;
        }
        final Class<?> g = boxed(given);
        return boxed(accepted).isAssignableFrom(g);
    }

    private static Class<?> boxed(final Class<?> type)
    {
        if (type == long.class)
        {
            return Long.class;
        }
        if (type == double.class)
        {
            return Double.class;
        }
        if (type == boolean.class)
        {
            return Boolean.class;
        }
        if (type == int.class)
        {
            return Integer.class;
        }
        return type;
    }

    private static String port(final StreamSpec spec)
    {
        return "'" + (spec.tag.isEmpty() ? "" : spec.tag + ":" + spec.index + ":") + spec.name + "'";
    }

    private static String name(final Class<?> type)
    {
        return type == Object.class ? "any (Object)" : type.getSimpleName();
    }
}
