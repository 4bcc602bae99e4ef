package dev.framewire.tools;

import dev.framewire.journal.JournalReader;
import dev.framewire.journal.JournalRecord;
import dev.framewire.journal.JournalTrace;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import javax.imageio.ImageIO;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code framewire journal timeline RUN --png run.png}: the run's timeline ({@link JournalTrace})
 * drawn as a picture, for people without Perfetto: a row per node and a row per worker with a bar
 * per call (coloured by node), red marks for drops and errors, blue for notes, and the packets
 * queued over time underneath. {@code --from} and {@code --to} zoom in. Drawn with AWT, headless.
 */
@Command(
    name = "timeline",
    mixinStandardHelpOptions = true,
    versionProvider = FramewireCommand.Version.class,
    description = {"Draws a journaled run's timeline as a PNG: a row per node and per worker with a bar per call, " +
        "drops and errors in red, notes in blue, and the packets queued over time."})
public final class JournalTimelineCommand implements Callable<Integer>
{
    private static final int WIDTH = 1600;
    private static final int LABELS = 190;
    private static final int RIGHT = 44;
    /** Tableau's qualitative colours without its red, which marks drops, errors and unfinished calls. */
    private static final int[] PALETTE = {0x4E79A7, 0xF28E2B, 0x59A14F, 0xB07AA1, 0x9C755F, 0xFF9DA7, 0x76B7B2,
        0xEDC948, 0xBAB0AC, 0x1F4E79, 0x8CD17D};
    private static final int ROW = 20;
    private static final int TOP = 56;
    private static final int QUEUE_HEIGHT = 90;

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "RUN", description = "A run journal directory, or a root (its newest run).")
    private Path directory;

    @Option(names = "--png", paramLabel = "FILE", required = true, description = "The PNG file to write.")
    private Path png;

    @Option(names = "--from", paramLabel = "S", description = "Start this many seconds into the run (default: 0).")
    private double from;

    @Option(names = "--to", paramLabel = "S", description = "End this many seconds into the run (default: its end).")
    private Double to;

    @Override
    public Integer call() throws IOException
    {
        System.setProperty("java.awt.headless", "true");
        final JournalReader journal = JournalCommand.readUpToDamage(directory);
        final JournalTrace trace = JournalTrace.of(journal);
        final double t0 = Math.max(0, from * 1e6);
        final double t1 = to != null ? Math.min(trace.endMicros(), to * 1e6) : trace.endMicros();
        if (!(t1 > t0))
        {
            throw new CommandFailure("--from " + from + " is not before the end of the window (" +
                String.format(Locale.ROOT, "%.3f", t1 / 1e6) + " s)");
        }
        ImageIO.write(draw(journal.directory().getFileName().toString(), trace, t0, t1), "png", png.toFile());
        spec.commandLine().getOut().printf(Locale.ROOT, "timeline of %s, %.3f s to %.3f s: %d calls; %s written%n",
            journal.directory(), t0 / 1e6, t1 / 1e6, trace.calls().size(), png);
        spec.commandLine().getOut().flush();
        return journal.cutAt() != null ? 1 : 0;
    }

    static BufferedImage draw(final String title, final JournalTrace trace, final double t0, final double t1)
    {
        final int nodes = trace.nodeNames().size();
        final int workers = trace.workerTracks().size();
        final int rows = nodes + workers;
        final int height = TOP + rows * ROW + 24 + QUEUE_HEIGHT + 40;
        final BufferedImage image = new BufferedImage(WIDTH, height, BufferedImage.TYPE_INT_RGB);
        final Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, WIDTH, height);
        final double scale = (WIDTH - LABELS - RIGHT) / (t1 - t0);
        final Font font = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
        g.setFont(font.deriveFont(Font.BOLD, 14f));
        g.setColor(Color.BLACK);
        g.drawString("framewire journal timeline: " + title, 10, 18);
        g.setFont(font);

        // rows: nodes, then workers, with alternating bands
        for (int r = 0; r < rows; r++)
        {
            final int y = TOP + r * ROW;
            g.setColor(r % 2 == 0 ? new Color(0xF4F4F4) : Color.WHITE);
            g.fillRect(LABELS, y, WIDTH - LABELS - RIGHT, ROW);
            g.setColor(Color.DARK_GRAY);
            final String worker = r < nodes ? null : trace.workerTracks().get(r - nodes);
            final String label = r < nodes ? trace.nodeNames().get(r) : JournalReader.CALLER.equals(worker) ?
                "other threads" : "worker " + worker;
            g.drawString(fit(g.getFontMetrics(), label, LABELS - 14), 8, y + ROW - 6);
        }
        g.setColor(Color.GRAY);
        g.drawLine(LABELS, TOP + nodes * ROW, WIDTH - RIGHT, TOP + nodes * ROW);
        axis(g, t0, t1, scale, TOP - 4, TOP + rows * ROW);

        final int inView = drawCalls(g, trace, t0, t1, scale);
        int drops = 0;
        int errors = 0;
        int notes = 0;
        for (final JournalTrace.Mark m : trace.marks())
        {
            if (m.micros() < t0 || m.micros() > t1)
            {
                continue;
            }
            final int x = LABELS + (int)((m.micros() - t0) * scale);
            final int row = m.node() >= 0 && m.node() < nodes ? m.node() : nodes; // not a node's: the first worker row
            final int y = TOP + row * ROW;
            if (m.kind() == JournalRecord.Kind.DROP)
            {
                drops++;
                g.setColor(new Color(0xD0, 0x20, 0x20));
                g.fillPolygon(new int[]{x - 3, x + 3, x}, new int[]{y + 1, y + 1, y + 7}, 3);
            }
            else if (m.kind() == JournalRecord.Kind.ERROR)
            {
                errors++;
                g.setColor(Color.RED);
                g.setStroke(new BasicStroke(2f));
                g.drawLine(x, TOP, x, TOP + rows * ROW);
                g.setStroke(new BasicStroke(1f));
            }
            else
            {
                notes++;
                g.setColor(new Color(0x20, 0x50, 0xD0));
                g.fillRect(x - 1, y + ROW - 6, 3, 5);
            }
        }

        // the packets queued over time, summed over streams, from the trace's counters
        drawQueued(g, trace, t0, t1, scale, TOP + rows * ROW + 24);

        g.setColor(Color.BLACK);
        g.drawString(String.format(Locale.ROOT, "in view: %d calls (a bar each, by node; a darker edge where each " +
            "begins), %d drops (red triangles), %d errors (red lines), %d notes (blue); a red bar: a call that had " +
            "not ended when the journal ends", inView, drops, errors, notes), 10, 38);
        g.dispose();
        return image;
    }

    /** A bar per call in view, on its node's row and its worker's; returns how many were in view. */
    private static int drawCalls(
        final Graphics2D g, final JournalTrace trace, final double t0, final double t1, final double scale)
    {
        final int nodes = trace.nodeNames().size();
        final Color[] colors = new Color[Math.max(1, nodes)];
        for (int n = 0; n < colors.length; n++)
        {
            colors[n] = new Color(PALETTE[n % PALETTE.length]);
        }
        int inView = 0;
        for (final JournalTrace.Call c : trace.calls())
        {
            if (c.endMicros() < t0 || c.beginMicros() > t1)
            {
                continue;
            }
            inView++;
            final int x0 = LABELS + (int)((Math.max(t0, c.beginMicros()) - t0) * scale);
            final int x1 = LABELS + (int)((Math.min(t1, c.endMicros()) - t0) * scale);
            final Color color = c.node() >= 0 && c.node() < colors.length ? colors[c.node()] : Color.GRAY;
            final int[] ys = c.node() >= 0 && c.node() < nodes ?
                new int[]{TOP + c.node() * ROW + 3, TOP + (nodes + c.worker()) * ROW + 3} :
                new int[]{TOP + (nodes + c.worker()) * ROW + 3};
            for (final int y : ys)
            {
                g.setColor(c.unfinished() ? Color.RED : color);
                g.fillRect(x0, y, Math.max(1, x1 - x0), ROW - 6);
                if (x1 - x0 >= 4)
                {
                    // the call's start, darker, so that back-to-back calls (a source waiting for its next frame) show apart
                    g.setColor(color.darker().darker());
                    g.drawLine(x0, y, x0, y + ROW - 7);
                }
            }
        }
        return inView;
    }

    /** The packets queued over time, summed over streams, from the trace's counters, in a band whose top is qTop. */
    private static void drawQueued(
        final Graphics2D g, final JournalTrace trace, final double t0, final double t1, final double scale,
        final int qTop)
    {
        g.setColor(Color.DARK_GRAY);
        g.drawString("packets queued", 8, qTop + 14);
        g.setColor(new Color(0xF4F4F4));
        g.fillRect(LABELS, qTop, WIDTH - LABELS - RIGHT, QUEUE_HEIGHT);
        final Map<String, Long> bySeries = new HashMap<>();
        long max = 1;
        long total = 0;
        for (final JournalTrace.Event e : trace.events())
        {
            if ("C".equals(e.ph()) && "queued packets".equals(e.name()))
            {
                for (final Map.Entry<String, Object> a : e.args().entrySet())
                {
                    final long v = ((Number)a.getValue()).longValue();
                    total += v - bySeries.getOrDefault(a.getKey(), 0L);
                    bySeries.put(a.getKey(), v);
                }
                max = Math.max(max, total);
            }
        }
        bySeries.clear();
        total = 0;
        int lastX = LABELS;
        int lastY = qTop + QUEUE_HEIGHT;
        g.setColor(new Color(0x2060A0));
        for (final JournalTrace.Event e : trace.events())
        {
            if (!"C".equals(e.ph()) || !"queued packets".equals(e.name()))
            {
                continue;
            }
            for (final Map.Entry<String, Object> a : e.args().entrySet())
            {
                final long v = ((Number)a.getValue()).longValue();
                total += v - bySeries.getOrDefault(a.getKey(), 0L);
                bySeries.put(a.getKey(), v);
            }
            if (e.ts() < t0 || e.ts() > t1)
            {
                continue;
            }
            final int x = LABELS + (int)((e.ts() - t0) * scale);
            final int y = qTop + QUEUE_HEIGHT - (int)(total * (QUEUE_HEIGHT - 4) / max);
            g.drawLine(lastX, lastY, x, lastY);
            g.drawLine(x, lastY, x, y);
            lastX = x;
            lastY = y;
        }
        g.setColor(Color.DARK_GRAY);
        g.drawString("max " + max, 8, qTop + 30);
        axis(g, t0, t1, scale, qTop + QUEUE_HEIGHT + 14, -1);
    }

    /** Tick marks and labels in seconds along the top (or a given line), with grid lines down to gridBottom. */
    private static void axis(final Graphics2D g, final double t0, final double t1, final double scale, final int y,
        final int gridBottom)
    {
        final double span = (t1 - t0) / 1e6;
        final double[] steps = {0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5,
            10, 20, 30, 60, 120, 300, 600, 1800, 3600};
        double step = steps[steps.length - 1];
        for (final double s : steps)
        {
            if (span / s <= 12)
            {
                step = s;
                break;
            }
        }
        final int decimals = step >= 1 ? 0 : (int)Math.ceil(-Math.log10(step));
        for (double t = Math.ceil(t0 / 1e6 / step) * step; t <= t1 / 1e6 + 1e-12; t += step)
        {
            final int x = LABELS + (int)((t * 1e6 - t0) * scale);
            if (gridBottom > 0)
            {
                g.setColor(new Color(0xDDDDDD));
                g.drawLine(x, y + 4, x, gridBottom);
            }
            g.setColor(Color.DARK_GRAY);
            final String label = String.format(Locale.ROOT, "%." + decimals + "f s", t);
            g.drawString(label, x - g.getFontMetrics().stringWidth(label) / 2, y);
        }
    }

    private static String fit(final FontMetrics metrics, final String text, final int width)
    {
        if (metrics.stringWidth(text) <= width)
        {
            return text;
        }
        String t = text;
        while (t.length() > 1 && metrics.stringWidth(t + "…") > width)
        {
            t = t.substring(0, t.length() - 1);
        }
        return t + "…";
    }
}
