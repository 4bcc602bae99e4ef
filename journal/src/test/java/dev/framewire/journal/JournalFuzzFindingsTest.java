package dev.framewire.journal;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@link JournalFuzzTest} found, each kept as a named input under
 * {@code JournalFuzzTestInputs/read/} and checked here for the clear damage report it now gets.
 */
class JournalFuzzFindingsTest
{
    /**
     * Was a NullPointerException in {@link Postmortem#of}: a run start whose list of node inputs
     * failed part-way left the reader with nodes whose inputs were null.
     */
    @Test
    void aRunStartCutInItsNodeInputsIsDamageAndThePostmortemStillWorks() throws IOException
    {
        final JournalFuzzTest.Run run = JournalFuzzTest.Run.make();
        run.write(bytes("finding_run_start_cut_in_node_inputs.bin"));
        final JournalException ex = assertThrows(JournalException.class, () -> JournalReader.read(run.dir));
        assertNotNull(ex.readable(), ex.getMessage());
        assertFalse(ex.damage().isEmpty(), ex.getMessage());
        assertTrue(ex.getMessage().contains("is damaged") && ex.getMessage().contains("RUN_START"), ex.getMessage());
        final JournalReader readable = ex.readable();
        for (int n = 0; readable.hasTopology() && n < readable.nodeNames().size(); n++)
        {
            assertNotNull(readable.nodeInputs(n), "node " + n + " has its inputs when the topology is known");
        }
        assertNotNull(Postmortem.of(readable).toString());
    }

    private static byte[] bytes(final String finding) throws IOException
    {
        try (InputStream in = JournalFuzzFindingsTest.class.getResourceAsStream("JournalFuzzTestInputs/read/" + finding))
        {
            assertNotNull(in, finding);
            return in.readAllBytes();
        }
    }
}
