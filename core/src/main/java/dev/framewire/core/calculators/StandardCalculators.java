package dev.framewire.core.calculators;

import dev.framewire.core.CalculatorProvider;
import dev.framewire.core.CalculatorRegistry;
import dev.framewire.core.calculators.image.AnnotateCalculator;
import dev.framewire.core.calculators.image.BrightnessContrastCalculator;
import dev.framewire.core.calculators.image.ColorConvertCalculator;
import dev.framewire.core.calculators.image.ImageFolderSinkCalculator;
import dev.framewire.core.calculators.image.ImageFolderSourceCalculator;
import dev.framewire.core.calculators.image.MotionDetectorCalculator;
import dev.framewire.core.calculators.image.RawVideoReaderCalculator;
import dev.framewire.core.calculators.image.ResizeCalculator;
import dev.framewire.core.calculators.image.SnapshotSinkCalculator;
import dev.framewire.core.calculators.image.SyntheticCameraCalculator;
import dev.framewire.core.calculators.video.VideoSinkCalculator;
import dev.framewire.core.calculators.video.VideoSourceCalculator;

/**
 * Registers the standard calculators under their MediaPipe-style names.
 */
public final class StandardCalculators implements CalculatorProvider
{
    @Override
    public void register(final CalculatorRegistry registry)
    {
        registry.register("PassThroughCalculator", PassThroughCalculator::new);
        registry.register("CountingSourceCalculator", CountingSourceCalculator::new);
        registry.register("FlowLimiterCalculator", FlowLimiterCalculator::new);
        registry.register("GateCalculator", GateCalculator::new);
        registry.register("PacketClonerCalculator", PacketClonerCalculator::new);
        registry.register("CollectorSinkCalculator", CollectorSinkCalculator::new);
        registry.register("LatencyStampCalculator", LatencyStampCalculator::new);
        registry.register("SyntheticCameraCalculator", SyntheticCameraCalculator::new);
        registry.register("RawVideoReaderCalculator", RawVideoReaderCalculator::new);
        registry.register("ColorConvertCalculator", ColorConvertCalculator::new);
        registry.register("ResizeCalculator", ResizeCalculator::new);
        registry.register("BrightnessContrastCalculator", BrightnessContrastCalculator::new);
        registry.register("MotionDetectorCalculator", MotionDetectorCalculator::new);
        registry.register("AnnotateCalculator", AnnotateCalculator::new);
        registry.register("SnapshotSinkCalculator", SnapshotSinkCalculator::new);
        registry.register("ImageFolderSourceCalculator", ImageFolderSourceCalculator::new);
        registry.register("ImageFolderSinkCalculator", ImageFolderSinkCalculator::new);
        registry.register("VideoSourceCalculator", VideoSourceCalculator::new);
        registry.register("VideoSinkCalculator", VideoSinkCalculator::new);
    }
}
