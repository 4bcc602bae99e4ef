package dev.framewire.core;

/**
 * What a graph does when a calculator throws.
 */
public enum FailurePolicy
{
    /** Stop every node, release every payload, and fail the run (MediaPipe's and BMF's behaviour). */
    FAIL_RUN
}
