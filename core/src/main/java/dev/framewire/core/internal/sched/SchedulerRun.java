package dev.framewire.core.internal.sched;

import dev.framewire.core.internal.node.NodeRunState;
import dev.framewire.core.internal.stream.GraphInput;
import dev.framewire.core.internal.stream.StreamRun;

import java.util.Collection;

/**
 * What the {@link Scheduler} needs of its run beyond a node's and a stream's view: the graph inputs
 * whose adders its deadlock check looks at. The run implements it (one implementation); the
 * scheduler does not name the run.
 *
 * <p>Threading: {@link #graphInputs()} from any thread (a copy-on-write map's values).
 */
public interface SchedulerRun extends NodeRunState, StreamRun
{
    /** Any thread: the graph inputs, the hot-plugged subgraphs' too. */
    Collection<GraphInput> graphInputs();

    /** The thread that stops the workers: raises the run's stop flag (a volatile store), which {@link #isStopping()} reads. */
    void markStopping();
}
