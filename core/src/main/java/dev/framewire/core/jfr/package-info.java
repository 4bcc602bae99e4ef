/**
 * JFR events the engine emits: node calls, drops, backpressure, deadlock and watchdog reports,
 * memory limits crossed. Named {@code dev.framewire.*} so recordings and {@code framewire jfr}
 * tools can select them. Off unless a recording enables them (see {@code scripts/framewire.jfc}).
 *
 * <p>Not exported by the module {@code dev.framewire.core}: a recording and its readers select the
 * events by those names, never by these classes, which are the engine's to change.
 */
package dev.framewire.core.jfr;
