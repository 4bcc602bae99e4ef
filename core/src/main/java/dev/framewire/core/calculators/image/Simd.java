package dev.framewire.core.calculators.image;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Optional;

/**
 * Whether the image kernels run their Vector API loops ({@link VectorRows}), decided once per JVM.
 *
 * <p>They do when the module {@code jdk.incubator.vector} is in the boot layer ({@code --add-modules
 * jdk.incubator.vector}, which {@code .mvn/jvm.config} and the scripts give) and the system
 * property {@code framewire.simd} is not {@code false}. Two sets, by what C2 makes of them
 * (measured per kernel: docs/results/image-kernels.md):
 * <ul>
 *   <li>{@link #ROWS}, from JDK 17 on: motion, brightness/contrast, RGBA to gray, half size, YUV's
 *       luma widening and bilinear's vertical pass on gray, each faster there than its scalar
 *       loop, and none allocating;</li>
 *   <li>{@link #ALL}, from JDK 25 on: those and the loops JDK 17's incubator runs slower than the
 *       scalar ones or boxes (allocates) in: YUV to RGBA (its chroma spread by a shuffle),
 *       bilinear's horizontal pass (lane selects and gathers) and its vertical pass on RGBA. {@code -Dframewire.simd=true} takes them on an earlier JDK
 *       too, for comparison.</li>
 * </ul>
 * Otherwise the scalar loops run: the same answers, to the bit.
 */
final class Simd
{
    /** The system property: {@code true}, {@code false} or {@code auto} (the default). */
    static final String PROPERTY = "framewire.simd";

    private static final String IMPLEMENTATION = "dev.framewire.core.calculators.image.VectorKernels";
    private static final int ALL_FROM_JDK = 25;

    /** The lane-wise Vector API loops, or null for the scalar ones. */
    static final VectorRows ROWS = load();

    /** Every Vector API loop: {@link #ROWS} on JDK 25 or later (or when asked), else null. */
    static final VectorRows ALL = ROWS != null &&
        (Runtime.version().feature() >= ALL_FROM_JDK || "true".equals(System.getProperty(PROPERTY))) ? ROWS : null;

    private Simd()
    {
    }

    private static VectorRows load()
    {
        if ("false".equals(System.getProperty(PROPERTY, "auto")))
        {
            return null;
        }
        final Optional<Module> vector = ModuleLayer.boot().findModule("jdk.incubator.vector");
        if (vector.isEmpty())
        {
            return null;
        }
        Simd.class.getModule().addReads(vector.get()); // core names the module nowhere else
        try
        {
            return (VectorRows)Class.forName(IMPLEMENTATION, true, Simd.class.getClassLoader())
                .getDeclaredConstructor().newInstance();
        }
        catch (final ReflectiveOperationException | LinkageError ex)
        {
            final Logger log = LoggerFactory.getLogger(Simd.class);
            log.warn("image kernels: the Vector API path did not load ({}); the scalar loops run", ex.toString());
            return null;
        }
    }
}
