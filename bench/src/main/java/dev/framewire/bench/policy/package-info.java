/**
 * Input policy benchmarks (issue 4): a two-input node under the default policy (a join) and under
 * the immediate policy; the flow limiter at full rate in front of a slow node; a slow node with
 * {@code max_in_flight} 1 and 2. Framewire only: each checks what arrived after every iteration
 * (counts, sums, order) and throws when it is wrong.
 */
package dev.framewire.bench.policy;
