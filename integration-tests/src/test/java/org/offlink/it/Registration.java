package org.offlink.it;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One call the spy saw: {@code GOMP_offload_register_ver} or {@code GOMP_offload_unregister_ver}
 * with its version, device type, registering module and host table counts, plus the body lines
 * describing the target data (see {@code interposer/gomp_register_spy.c}).
 */
record Registration(
    Kind kind,
    int version,
    int deviceType,
    String module,
    int hostFuncs,
    int hostVars,
    List<String> body) {
  /** Register or unregister. */
  enum Kind {
    REGISTER,
    UNREGISTER
  }

  /** Copies and checks the fields. */
  Registration {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(module, "module");
    body = List.copyOf(body);
    if (hostFuncs < 0 || hostVars < 0) {
      throw new IllegalArgumentException("negative host table count");
    }
  }

  /** The target with this device type, if known. */
  Optional<OffloadTarget> target() {
    return OffloadTarget.ofDeviceType(deviceType);
  }

  /**
   * The number of offload functions in the target data that libgomp pairs with host functions:
   * nvptx {@code fn_num}; GCN {@code kernel_count} less {@code _init_array} and {@code
   * _fini_array}.
   */
  OptionalInt deviceFuncs() {
    OptionalInt nvptx = field(" nvptx ptx=", "funcs");
    if (nvptx.isPresent()) {
      return nvptx;
    }
    OptionalInt gcn = field(" gcn kernels=", "kernels");
    return gcn.isPresent() ? OptionalInt.of(gcn.getAsInt() - 2) : gcn;
  }

  /** The number of variables in the target data (nvptx {@code var_num}, GCN global count). */
  OptionalInt deviceVars() {
    OptionalInt nvptx = field(" nvptx ptx=", "vars");
    return nvptx.isPresent() ? nvptx : field(" gcn kernels=", "vars");
  }

  /**
   * The names in the body's {@code tag} lines, in order: the host table's ({@code host func},
   * {@code host var}, {@code host ind_func}) or the image's ({@code nvptx func}, {@code nvptx var},
   * {@code gcn kernel}).
   */
  List<String> names(String tag) {
    String prefix = " " + tag + " ";
    return body.stream()
        .filter(line -> line.startsWith(prefix))
        .map(line -> line.substring(prefix.length()).split(" ")[0])
        .toList();
  }

  /** The ELF e_flags of the GCN image (its low byte is the EF_AMDGPU_MACH value). */
  OptionalInt gcnElfFlags() {
    return field(" gcn image ", "e_flags");
  }

  private OptionalInt field(String linePrefix, String key) {
    return body.stream()
        .filter(line -> line.startsWith(linePrefix))
        .findFirst()
        .flatMap(line -> RegistrationDump.value(line, key))
        .map(v -> OptionalInt.of(Integer.decode(v)))
        .orElse(OptionalInt.empty());
  }
}
