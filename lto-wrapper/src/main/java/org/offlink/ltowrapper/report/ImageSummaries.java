package org.offlink.ltowrapper.report;

import java.io.ByteArrayOutputStream;
import java.util.List;
import org.offlink.bridge.image.GcnImage;
import org.offlink.bridge.image.GcnKernel;
import org.offlink.bridge.image.NvptxFunction;
import org.offlink.bridge.image.NvptxImage;
import org.offlink.ltowrapper.report.proto.Chunk;
import org.offlink.ltowrapper.report.proto.Function;
import org.offlink.ltowrapper.report.proto.Image;
import org.offlink.ltowrapper.report.proto.ImageFormat;
import org.offlink.streamer.inspect.Sha256;

/**
 * Turns the images mkoffload built into report entries: sizes and SHA-256 of the bytes libgomp
 * receives (the HSACO; the PTX chunks, each without its NUL, and all of them concatenated), and the
 * function and variable tables.
 */
final class ImageSummaries {
  private ImageSummaries() {}

  /** The entry for an nvptx image; object fields are filled in later. */
  static Image.Builder nvptx(String target, NvptxImage image) {
    Image.Builder b = Image.newBuilder().setTarget(target).setFormat(ImageFormat.IMAGE_FORMAT_PTX);
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (byte[] chunk : image.ptxChunks()) {
      all.writeBytes(chunk);
      b.addChunks(Chunk.newBuilder().setSize(chunk.length).setSha256(sha256(chunk)));
    }
    byte[] bytes = all.toByteArray();
    b.setImageSize(bytes.length).setSha256(sha256(bytes));
    for (NvptxFunction f : image.functions()) {
      b.addFunctions(
          Function.newBuilder()
              .setName(f.name())
              .addAllLaunchDims(List.of(f.gang(), f.worker(), f.vector())));
    }
    return b.addAllVariables(image.variables()).setVariableCount(image.variables().size());
  }

  /** The entry for a gcn image; object fields are filled in later. */
  static Image.Builder gcn(String target, GcnImage image) {
    Image.Builder b =
        Image.newBuilder()
            .setTarget(target)
            .setFormat(ImageFormat.IMAGE_FORMAT_HSACO)
            .setImageSize(image.hsaco().length)
            .setSha256(sha256(image.hsaco()))
            .setVariableCount(image.globalVariableCount());
    for (GcnKernel k : image.kernels()) {
      b.addFunctions(
          Function.newBuilder()
              .setName(k.name())
              .addAllLaunchDims(List.of(k.dim0(), k.dim1(), k.dim2()))
              .setSgprCount(k.sgprCount())
              .setVgprCount(k.vgprCount()));
    }
    return b;
  }

  /** Lower-case hex SHA-256 of {@code bytes}. */
  static String sha256(byte[] bytes) {
    return Sha256.hex(bytes);
  }
}
