package dev.framewire.core;

import java.util.List;

/**
 * A graph config is invalid. Each error names the node, stream, executor or option that is wrong
 * and says what would be valid; every error found is listed, not only the first.
 */
public final class GraphConfigException extends IllegalArgumentException
{
    private static final long serialVersionUID = 1L;

    private final transient List<String> errors;

    /**
     * A config with errors.
     *
     * @param errors every error found, each naming what is wrong and what would be valid.
     */
    public GraphConfigException(final List<String> errors)
    {
        super(errors.size() == 1 ? "invalid graph config: " + errors.get(0) :
            "invalid graph config, " + errors.size() + " errors:\n  " + String.join("\n  ", errors));
        this.errors = List.copyOf(errors);
    }

    /**
     * Each error, one sentence each.
     *
     * @return the errors.
     */
    public List<String> errors()
    {
        return errors;
    }
}
