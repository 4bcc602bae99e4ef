package dev.framewire.core.calculators.image;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Optional;

/**
 * Whether the image kernels run their Vector API loops ({@link VectorRows}), decided once per JVM.
 *
 * <p>They do when all of these hold: the JVM is JDK 25 or later (the incubator's code generation
 * on 17 is far slower than the scalar loops: the API there boxes where C2 cannot intrinsify); the
 * module {@code jdk.incubator.vector} is in the boot layer ({@code --add-modules
 * jdk.incubator.vector}, which {@code .mvn/jvm.config} and the scripts give); the system property
 * {@code framewire.simd} is not {@code false}; and the implementation loads.
 * {@code -Dframewire.simd=true} also takes the path on
 * an earlier JDK, for comparison. Otherwise the scalar loops run: the same answers, to the bit.
 */
final class Simd
{
    /** The system property: {@code true}, {@code false} or {@code auto} (the default). */
    static final String PROPERTY = "framewire.simd";

    private static final String IMPLEMENTATION = "dev.framewire.core.calculators.image.VectorKernels";
    private static final int FIRST_JDK = 25;

    /** The Vector API loops, or null for the scalar ones. */
    static final VectorRows ROWS = load();

    private Simd()
    {
    }

    private static VectorRows load()
    {
        final String mode = System.getProperty(PROPERTY, "auto");
        if ("false".equals(mode) || !"true".equals(mode) && Runtime.version().feature() < FIRST_JDK)
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
