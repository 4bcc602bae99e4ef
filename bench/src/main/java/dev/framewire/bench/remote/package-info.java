/**
 * Benchmarks of remote streams (framewire-remote, issue 15): a hop over Aeron beside Aeron's own echo.
 */
package dev.framewire.bench.remote;
