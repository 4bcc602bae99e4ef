/**
 * JFR events the engine emits: node calls, drops, backpressure, deadlock and watchdog reports,
 * memory limits crossed. Named {@code dev.framewire.*} so recordings and {@code framewire jfr}
 * tools can select them. Off unless a recording enables them (see {@code scripts/framewire.jfc}).
 */
package dev.framewire.core.jfr;
