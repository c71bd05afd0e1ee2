package org.offlink.streamer.edit;

import org.offlink.streamer.elf.ElfSection;
import org.offlink.streamer.elf.SectionType;

/** A section of an object being edited: header fields plus contents, all mutable. */
final class WorkSection {
  String name;
  int type;
  long flags;
  long addr;
  int link;
  int info;
  long addralign;
  long entsize;
  byte[] data;
  long nobitsSize;

  WorkSection(String name, int type, long flags, long addralign, long entsize, byte[] data) {
    this.name = name;
    this.type = type;
    this.flags = flags;
    this.addralign = addralign;
    this.entsize = entsize;
    this.data = data;
  }

  static WorkSection of(ElfSection s, byte[] data) {
    WorkSection w =
        new WorkSection(s.name(), s.rawType(), s.flags(), s.addralign(), s.entsize(), data);
    w.addr = s.addr();
    w.link = s.link();
    w.info = s.info();
    w.nobitsSize = s.type() == SectionType.NOBITS ? s.size() : 0;
    return w;
  }

  boolean isNobits() {
    return type == SectionType.NOBITS.raw();
  }

  boolean isReloc() {
    return type == SectionType.REL.raw() || type == SectionType.RELA.raw();
  }

  boolean is(SectionType t) {
    return type == t.raw();
  }

  long size() {
    return isNobits() ? nobitsSize : data.length;
  }
}
