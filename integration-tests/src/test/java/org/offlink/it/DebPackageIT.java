package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.protobuf.util.JsonFormat;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.offlink.bridge.gcc.GccRelease;
import org.offlink.ltowrapper.report.proto.Execution;
import org.offlink.ltowrapper.report.proto.LinkReport;
import org.offlink.ltowrapper.report.proto.Target;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * The Debian package on every Debian that ships offload GCC: one {@code
 * offlink_<version>_amd64.deb}, built by the documented {@code dpkg-buildpackage -b -us -uc} from a
 * copy of the checkout, installed with apt into fresh bookworm, trixie and sid containers next to
 * the default {@code gcc}'s offload compilers (installed from the suite's archive into an image
 * kept for the next run: {@link DebianContainer#startWith}). In each: the suite's own lintian
 * reports no error or warning; the package diverts exactly the lto-wrapper and mkoffloads of the
 * supported (version, target) pairs ({@code lib/gcc-support}); a plain {@code gcc} link for nvptx,
 * for amdgcn at the default arch and for both (gcc's configured targets) runs offlink's lto-wrapper
 * (its link report) and registers exactly what stock registered before installation (spy); a GCC
 * offlink does not support (a fake {@code gcc-17-offload-nvptx}) installed later is left alone with
 * one line; {@code apt-get purge} (and on bookworm {@code remove}) gives every GCC file back byte
 * for byte ({@code sha256sum} and {@code dpkg --verify}), with no diversion left. On trixie also
 * the dpkg trigger: {@code gcc-13-offload-nvptx} installed after offlink is diverted and links like
 * stock gcc-13, removing it gives gcc-13's lto-wrapper back. Skipped, saying so, where no container
 * engine runs or the Debian packaging tools are missing.
 */
@Testcontainers(disabledWithoutDocker = true)
class DebPackageIT {
  private static final String ARCH = "x86_64-linux-gnu";

  /** The links compared with stock: name, then gcc's options (none: gcc's configured targets). */
  private static final Map<String, String> LINKS =
      Map.of(
          "nvptx", "-foffload=nvptx-none",
          "amdgcn", "-foffload=amdgcn-amdhsa",
          "both", "");

  @TempDir static Path dir;
  private static Path deb;

  @BeforeAll
  static void buildDeb() throws Exception {
    for (String tool : List.of("dpkg-buildpackage", "dh", "mvn", "git")) {
      assumeTrue(DebianContainer.onPath(tool), tool + " is not installed: cannot build the .deb");
    }
    deb = DebianContainer.buildDeb(dir);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"bookworm", "trixie", "sid"})
  void installLinksAsStockFollowsGccPackagesAndPurgeGivesEveryFileBack(String suite)
      throws Exception {
    try (DebianContainer c =
        DebianContainer.startWith(
            suite, "gcc-offload-nvptx gcc-offload-amdgcn libc6-dev lintian", deb)) {
      assertLintianClean(c, suite);
      int major = Integer.parseInt(c.sh("gcc -dumpversion").strip().split("\\.")[0]);
      String gccDir = GccRelease.of(major).libexecPrefix() + "/gcc/" + ARCH + "/" + major;
      String gccOwn = gccFileDigests(c);
      c.sh("gcc -shared -fPIC /tmp/spy.c -o /tmp/spy.so -ldl");
      Map<String, String> stock = new LinkedHashMap<>();
      for (String link : LINKS.keySet()) {
        stock.put(link, link(c, "gcc", link, "stock"));
      }

      c.apt("install", "/tmp/offlink.deb");
      Map<String, String> support = supportTable(c);
      TreeSet<String> expected = divertedFor(gccDir, major, support);
      assertEquals(expected, c.diversions(), "what postinst diverts on " + suite);
      // For the system java: an AOT cache from JDK 25 (sid), a CDS archive before.
      String java = c.sh("basename $(dirname $(dirname $(readlink -f /usr/bin/java)))").strip();
      assertTrue(
          c.sh("ls /var/cache/offlink/cds").matches("(?s).*\\b" + java + "\\.(jsa|aot)\\b.*"),
          "start-up cache trained for " + java);
      for (String link : LINKS.keySet()) {
        String ours = link(c, "gcc", link, "offlink");
        assertEquals(stock.get(link), ours, suite + " " + link + ": registrations (spy dump)");
        assertReport(c, link, major, support);
      }

      assertUnsupportedVersionLeftAlone(c, expected);
      String gcc13 = "trixie".equals(suite) ? gcc13ThroughTheTrigger(c, expected, support) : "";

      if ("bookworm".equals(suite)) { // remove as well as purge, once (each install trains)
        c.apt("remove", "offlink");
        assertGccRestored(c, gccOwn);
        assertTrue(c.sh("dpkg-query -W -f='${Status}' offlink").contains("config-files"));
        c.apt("install", "/tmp/offlink.deb");
        assertFalse(c.diversions().isEmpty());
      }
      c.apt("purge", "offlink");
      assertGccRestored(c, gccOwn);
      assertEquals("", c.sh("ls -A /usr/lib/offlink /var/cache/offlink 2>/dev/null || :"));
      assertEquals(
          "gone", c.sh("dpkg-query -W offlink >/dev/null 2>&1 && echo there || echo gone").strip());
      if (!gcc13.isEmpty()) {
        assertEquals(gcc13, link(c, "gcc-13", "nvptx", "stock"), "gcc-13 nvptx: registrations");
      }
    }
  }

  /** The suite's own lintian, as a user runs it (not as root): no error, no warning. */
  private static void assertLintianClean(DebianContainer c, String suite) throws Exception {
    String out =
        c.sh(
            "runuser -u nobody -- lintian --show-overrides -I --tag-display-limit 0"
                + " /tmp/offlink.deb");
    System.out.println("lintian on " + suite + " (" + c.sh("lintian --version").strip() + "):");
    System.out.println(out.isEmpty() ? "(nothing)" : out);
    for (String line : out.lines().toList()) {
      assertFalse(line.startsWith("E:") || line.startsWith("W:"), suite + " lintian:\n" + out);
    }
  }

  /** {@code sha256sum} of every lto-wrapper and mkoffload of every installed GCC. */
  private static String gccFileDigests(DebianContainer c) throws Exception {
    return c.sh(
        "ls -d /usr/lib*/gcc/*/*/lto-wrapper /usr/lib*/gcc/*/*/accel/*/mkoffload"
            + " | sort | xargs sha256sum");
  }

  /** lib/gcc-support: "major target" to "supported" or "refused: why". */
  private static Map<String, String> supportTable(DebianContainer c) throws Exception {
    Map<String, String> table = new LinkedHashMap<>();
    for (String line : c.sh("cat /usr/lib/offlink/lib/gcc-support").lines().toList()) {
      String[] words = line.split(" ", 3);
      table.put(words[0] + " " + words[1], words[2]);
    }
    return table;
  }

  private static boolean supported(Map<String, String> support, int major, String target) {
    return "supported".equals(support.get(major + " " + target));
  }

  /**
   * What postinst must divert in GCC {@code major}'s folder: its supported mkoffloads and then
   * lto-wrapper.
   */
  private static TreeSet<String> divertedFor(
      String gccDir, int major, Map<String, String> support) {
    TreeSet<String> files = new TreeSet<>();
    for (OffloadTarget t : OffloadTarget.values()) {
      if (supported(support, major, t.triple())) {
        files.add(gccDir + "/accel/" + t.triple() + "/mkoffload");
      }
    }
    if (!files.isEmpty()) {
      files.add(gccDir + "/lto-wrapper");
    }
    return files;
  }

  /**
   * Compiles saxpy for {@code link} with {@code driver} (once), links it in {@code /tmp/<kind>/}
   * (with a link report) and returns the spy's dump of the program's run.
   */
  private static String link(DebianContainer c, String driver, String link, String kind)
      throws Exception {
    String object = "/tmp/obj/" + driver + "-" + link + ".o";
    String options = LINKS.get(link);
    String work = "/tmp/" + kind + "/" + driver + "-" + link;
    String out =
        c.sh(
            "mkdir -p /tmp/obj "
                + work
                + " && cd "
                + work
                + " && { test -f "
                + object
                + " || "
                + driver
                + " -O2 -fopenmp "
                + options
                + " -c /tmp/saxpy.c -o "
                + object
                + "; } && OFFLINK_REPORT=$PWD/report.json "
                + driver
                + " -fopenmp "
                + options
                + " "
                + object
                + " -o saxpy && LD_PRELOAD=/tmp/spy.so OFFLINK_SPY_OUT=$PWD/spy.txt ./saxpy"
                + " && cat spy.txt");
    assertTrue(out.contains("saxpy: sum = "), out);
    String dump = out.substring(out.indexOf("register "));
    assertTrue(dump.contains(" type=5 ") || dump.contains(" type=8 "), dump);
    assertEquals(
        "stock".equals(kind) ? "none" : "report",
        c.sh("test -f " + work + "/report.json && echo report || echo none").strip(),
        kind + " link of " + link + ": whose lto-wrapper ran");
    return dump;
  }

  /** offlink's link report: each target built in-process exactly when offlink supports it. */
  private static void assertReport(
      DebianContainer c, String link, int major, Map<String, String> support) throws Exception {
    LinkReport.Builder b = LinkReport.newBuilder();
    JsonFormat.parser().merge(c.sh("cat /tmp/offlink/gcc-" + link + "/report.json"), b);
    LinkReport report = b.build();
    assertFalse(report.getTargetsList().isEmpty(), report.toString());
    for (Target t : report.getTargetsList()) {
      Execution expected =
          supported(support, major, t.getName())
              ? Execution.EXECUTION_IN_PROCESS
              : Execution.EXECUTION_SUBPROCESS;
      assertEquals(expected, t.getExecution(), link + ": " + t);
    }
  }

  /**
   * A GCC offlink does not support, installed while offlink is: the trigger leaves its files and
   * the diversions as they are and says so in one line.
   */
  private static void assertUnsupportedVersionLeftAlone(DebianContainer c, TreeSet<String> diverted)
      throws Exception {
    String gcc17 = "/usr/libexec/gcc/" + ARCH + "/17";
    c.sh(
        "d=/tmp/gcc17 && mkdir -p $d/DEBIAN $d"
            + gcc17
            + "/accel/nvptx-none && for f in lto-wrapper accel/nvptx-none/mkoffload; do"
            + " printf '#!/bin/sh\\necho GCC 17 %s\\n' $f > $d"
            + gcc17
            + "/$f && chmod 755 $d"
            + gcc17
            + "/$f; done && printf 'Package: gcc-17-offload-nvptx\\nVersion: 17.0.0-1\\n"
            + "Architecture: amd64\\nMaintainer: offlink tests <tests@offlink.invalid>\\n"
            + "Description: a GCC offlink does not support\\n' > $d/DEBIAN/control"
            + " && dpkg-deb --root-owner-group -b $d /tmp/gcc-17-offload-nvptx.deb >/dev/null");
    String files = " ." + gcc17 + "/lto-wrapper ." + gcc17 + "/accel/nvptx-none/mkoffload";
    String packaged = c.sh("cd /tmp/gcc17 && sha256sum" + files);
    String out = c.sh("dpkg -i /tmp/gcc-17-offload-nvptx.deb 2>&1");
    List<String> lines =
        out.lines().filter(l -> l.startsWith("offlink:") && l.contains("GCC 17")).toList();
    assertEquals(
        List.of(
            "offlink: leaving GCC 17's nvptx-none alone in "
                + gcc17
                + ": offlink does not support it (offlink gcc-support lists what it does)"),
        lines,
        out);
    assertEquals(diverted, c.diversions(), out);
    assertEquals(packaged, c.sh("cd / && sha256sum" + files), "GCC 17's files as packaged");
    c.sh("dpkg --purge gcc-17-offload-nvptx");
  }

  /**
   * trixie's gcc-13 gets offload compilers after offlink: the trigger diverts them, a gcc-13 link
   * runs offlink; removing the package gives gcc-13's lto-wrapper back, installing it again diverts
   * again. Returns the spy's dump of offlink's gcc-13 nvptx link.
   */
  private static String gcc13ThroughTheTrigger(
      DebianContainer c, TreeSet<String> diverted, Map<String, String> support) throws Exception {
    String dir13 = "/usr/libexec/gcc/" + ARCH + "/13";
    TreeSet<String> with13 = new TreeSet<>(diverted);
    with13.addAll(divertedFor(dir13, 13, Map.of("13 nvptx-none", support.get("13 nvptx-none"))));
    assertEquals(2, with13.size() - diverted.size(), "gcc-13's lto-wrapper and nvptx mkoffload");
    c.apt("install", "gcc-13-offload-nvptx");
    assertEquals(with13, c.diversions(), "diverted by the trigger");
    String own13 = c.sh("sha256sum " + dir13 + "/lto-wrapper.gcc-offlink-diverted");
    String ours = link(c, "gcc-13", "nvptx", "offlink");
    LinkReport.Builder b = LinkReport.newBuilder();
    JsonFormat.parser().merge(c.sh("cat /tmp/offlink/gcc-13-nvptx/report.json"), b);
    assertEquals(Execution.EXECUTION_IN_PROCESS, b.getTargets(0).getExecution(), b.toString());

    c.apt("remove", "gcc-13-offload-nvptx");
    assertEquals(diverted, c.diversions(), "given back by the trigger");
    assertEquals(
        own13.replace(".gcc-offlink-diverted", ""), c.sh("sha256sum " + dir13 + "/lto-wrapper"));
    assertEquals("", c.sh("ls -A " + dir13 + "/accel 2>/dev/null || :"), "no folder left behind");
    c.apt("install", "gcc-13-offload-nvptx");
    assertEquals(with13, c.diversions(), "diverted again");
    return ours;
  }

  /** Every GCC file as before offlink, no link, rename or diversion of offlink's left. */
  private static void assertGccRestored(DebianContainer c, String gccOwn) throws Exception {
    String now = gccFileDigests(c);
    for (String line : gccOwn.lines().toList()) {
      assertTrue(now.contains(line), "byte for byte: " + line + "\nnow:\n" + now);
    }
    assertEquals(new TreeSet<>(), c.diversions());
    assertEquals(
        "",
        c.sh(
            "find $(ls -d /usr/lib/gcc /usr/libexec/gcc 2>/dev/null)"
                + " -name '*offlink*' -o -lname '/usr/lib/offlink/*'"));
    // dpkg's own record of every installed GCC package's files.
    String installed =
        c.sh(
            "dpkg-query -W -f='${db:Status-Abbrev} ${Package}\\n' 'gcc-*'"
                + " | awk '$1 == \"ii\" {print $2}' | tr '\\n' ' '");
    assertFalse(installed.isBlank());
    assertEquals("", c.sh("dpkg --verify " + installed + " 2>&1 || :"), installed);
  }
}
