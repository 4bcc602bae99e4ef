/**
 * Off-heap payload benchmarks (issue 2): acquire and release of a pooled slot, retain and
 * release, the writable view of a shared and of an exclusive 1920x1080 RGBA frame, and buffer
 * access with the use-after-release check on and off. Each checks the pool's books after every
 * iteration and throws if they do not balance.
 */
package dev.framewire.bench.offheap;
