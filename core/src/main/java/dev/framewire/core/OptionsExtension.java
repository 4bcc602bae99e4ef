package dev.framewire.core;

/**
 * One block of MediaPipe calculator options in a node's config, kept as text: an extension
 * ({@code options { [mediapipe.FooOptions.ext] { ... } }}) or a {@code node_options} Any
 * ({@code [type.googleapis.com/mediapipe.FooOptions] { ... }}). Framewire has not compiled
 * MediaPipe's option protos, so it keeps the text for calculators that know the type; such a
 * calculator parses {@link #text()} (for instance with protobuf's {@code TextFormat} into its own
 * message) from {@link Options#extension(String)}.
 *
 * <p>Threading: immutable.
 */
public final class OptionsExtension
{
    private final String type;
    private final String text;
    private final String location;

    /**
     * An extension block.
     *
     * @param type     the message type, without {@code .ext} or a type URL prefix
     *                 ({@code mediapipe.FlowLimiterCalculatorOptions}).
     * @param text     the block's text between its braces.
     * @param location where it was written ({@code file:line}), for messages.
     */
    public OptionsExtension(final String type, final String text, final String location)
    {
        this.type = type;
        this.text = text;
        this.location = location;
    }

    /**
     * The options message's full type name, as {@code mediapipe.FlowLimiterCalculatorOptions}.
     *
     * @return the name.
     */
    public String type()
    {
        return type;
    }

    /**
     * The block's text, between its braces, in protobuf text format.
     *
     * @return the text.
     */
    public String text()
    {
        return text;
    }

    /**
     * Where the block was written ({@code file:line}).
     *
     * @return the location.
     */
    public String location()
    {
        return location;
    }

    /**
     * The type name an extension or Any name in brackets stands for: {@code .ext} and a type URL
     * prefix are dropped.
     *
     * @param bracketed the name between the brackets.
     * @return the message type's full name.
     */
    static String typeOf(final String bracketed)
    {
        String name = bracketed.trim();
        final int slash = name.lastIndexOf('/');
        if (slash >= 0)
        {
            name = name.substring(slash + 1);
        }
        return name.endsWith(".ext") ? name.substring(0, name.length() - 4) : name;
    }

    @Override
    public String toString()
    {
        return "[" + type + "] { " + text.trim().replaceAll("\\s+", " ") + " }";
    }
}
