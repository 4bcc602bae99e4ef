/**
 * Framewire's off-heap payload memory: size-class pools of aligned slabs, reference-counted
 * payloads with copy-on-write, the memory budget.
 *
 * <p>Exports its one package, {@code dev.framewire.offheap}: every public type there is API (the
 * pool, the payload, the budget, the pixel formats and the exceptions); {@code SizeClass} and the
 * slab bookkeeping are package-private. {@code requires transitive org.agrona}: a payload hands
 * out Agrona buffers ({@code Payload.buffer()}, {@code mutableBuffer()}), so a module that reads
 * this one reads Agrona. Agrona is an automatic module named by its {@code Automatic-Module-Name}
 * ({@code org.agrona}), a stable name; the {@code requires-automatic} and
 * {@code requires-transitive-automatic} lints are off for this module's compile (see its pom).
 *
 * <p>The module is named so that {@code dev.framewire.core} can require it by a name that does not
 * depend on the jar's file name. On the module path Agrona is the named module {@code org.agrona},
 * so Agrona's flag is {@code --add-exports=java.base/jdk.internal.misc=org.agrona} there, not the
 * {@code ALL-UNNAMED} of {@code .mvn/jvm.config} (see {@code README.md}, "Modules").
 */
module dev.framewire.offheap
{
    requires transitive org.agrona;

    exports dev.framewire.offheap;
}
