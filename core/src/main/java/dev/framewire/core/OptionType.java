package dev.framewire.core;

/**
 * The types a calculator option may have, as declared in its {@link Contract}.
 */
public enum OptionType
{
    /** A signed 64-bit integer; the config may give any integral number. */
    LONG,
    /** A double; the config may give any number. */
    DOUBLE,
    /** A boolean. */
    BOOLEAN,
    /** A string. */
    STRING;

    /**
     * A value as this type (a number widened or narrowed as the type wants), or null if it is not one.
     *
     * @param value the value given.
     * @return the value as this type, or null.
     */
    public Object coerce(final Object value)
    {
        switch (this)
        {
            case LONG:
                if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte)
                {
                    return ((Number)value).longValue();
                }
                return null;
            case DOUBLE:
                return value instanceof Number ? (Object)((Number)value).doubleValue() : null;
            case BOOLEAN:
                return value instanceof Boolean ? value : null;
            default:
                return value instanceof String ? value : null;
        }
    }
}
