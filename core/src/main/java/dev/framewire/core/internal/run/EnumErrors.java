package dev.framewire.core.internal.run;

import com.google.protobuf.Descriptors;
import dev.framewire.core.config.proto.CalculatorGraphConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rewrites protobuf's text-format error for an enum value it does not know ({@code Enum type
 * "framewire.FailurePolicy" has no value named "DROP_EVERYTHING".}) into one that lists the valid
 * values, as every other config error does: {@code unknown FailurePolicy value 'DROP_EVERYTHING';
 * valid values are [FAIL_RUN, ISOLATE, DROP_TIMESTAMP]}.
 *
 * <p>Threading: stateless; any thread.
 */
public final class EnumErrors
{
    private static final Pattern NO_VALUE =
        Pattern.compile("Enum type \"([\\w.]+)\" has no value (?:named \"([^\"]*)\"|with number (-?\\d+))\\.?");

    private EnumErrors()
    {
    }

    /**
     * The message with the valid values of the enum it names, or the message as it was if it is
     * not about an enum value, or names an enum of another file.
     *
     * @param message a text-format parse error, its line and column taken off.
     * @return the explained message.
     */
    public static String explain(final String message)
    {
        final Matcher m = NO_VALUE.matcher(message);
        if (!m.find())
        {
            return message;
        }
        final Descriptors.EnumDescriptor type = find(m.group(1));
        if (type == null)
        {
            return message;
        }
        final List<String> valid = new ArrayList<>();
        for (final Descriptors.EnumValueDescriptor value : type.getValues())
        {
            valid.add(value.getName());
        }
        final String given = m.group(2) != null ? "'" + m.group(2) + "'" : m.group(3);
        return message.substring(0, m.start()) + "unknown " + type.getName() + " value " + given + "; valid values " +
            "are " + valid + message.substring(m.end());
    }

    private static Descriptors.EnumDescriptor find(final String fullName)
    {
        final Descriptors.FileDescriptor file = CalculatorGraphConfig.getDescriptor().getFile();
        for (final Descriptors.EnumDescriptor type : file.getEnumTypes())
        {
            if (type.getFullName().equals(fullName))
            {
                return type;
            }
        }
        for (final Descriptors.Descriptor message : file.getMessageTypes())
        {
            for (final Descriptors.EnumDescriptor type : message.getEnumTypes())
            {
                if (type.getFullName().equals(fullName))
                {
                    return type;
                }
            }
        }
        return null;
    }
}
