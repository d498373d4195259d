//===- CodeObjects.cpp - Resource use read from compiled kernels ---------===//
//
// layout_opt.code_object_resources: what each kernel of a compiled code
// object uses, read from the object itself (issue 20: kernel.compile(chip)
// returns the code object and its resource use).
//
// - AMDGPU code objects: the NT_AMDGPU_METADATA note (msgpack), keys of
//   the AMDGPU code object V5 metadata (LLVM AMDGPUUsage, "Code Object V3
//   to V5 Metadata"): .vgpr_count, .agpr_count, .sgpr_count,
//   .group_segment_fixed_size (LDS bytes), .private_segment_fixed_size
//   (scratch bytes per lane), .wavefront_size.
// - NVIDIA cubins: the static shared memory is the size of the kernel's
//   `.nv.shared.<kernel>` section; the registers per thread are the
//   EIATTR_REGCOUNT attribute of `.nv.info` (format EIFMT_SVAL: symbol
//   index, count), the record cuobjdump -elf prints as "EIATTR_REGCOUNT".
//   Where the cubin has a `.nv.shared.reserved.*` section, each kernel's
//   section also holds the 1 KiB of shared memory CUDA reserves per block
//   for the system on sm_80 and later (CUDA C++ Programming Guide,
//   cudaDevAttrReservedSharedMemoryPerBlock), which the driver does not
//   count as the kernel's: shared_bytes leaves it out.
//   The CUDA driver's CU_FUNC_ATTRIBUTE_NUM_REGS and
//   CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES give the same numbers at run time
//   (layout_opt.cuda.Kernel.registers / shared_bytes;
//   bench/transpose/python-launch.py compares them on the lent H100).
// - Text (PTX, assembly): no kernel has resources yet; an empty dict.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/Object/ELF.h"

#include <map>

namespace layout_python {
namespace {

using ELF = llvm::object::ELF64LE;
using Resources = std::map<std::string, std::map<std::string, int64_t>>;

[[noreturn]] void fail(const std::string &what, llvm::Error e) {
  throw std::invalid_argument("not a readable code object: " + what + ": " +
                              llvm::toString(std::move(e)));
}

template <typename T> T check(llvm::Expected<T> v, const std::string &what) {
  if (!v)
    fail(what, v.takeError());
  return std::move(*v);
}

/// The kernels of an AMDGPU code object's metadata note.
void readAMDGPU(const llvm::object::ELFFile<ELF> &file, Resources &out) {
  for (const ELF::Shdr &sec : check(file.sections(), "sections")) {
    if (sec.sh_type != llvm::ELF::SHT_NOTE)
      continue;
    llvm::Error err = llvm::Error::success();
    for (const ELF::Note &note : file.notes(sec, err)) {
      if (note.getName() != "AMDGPU" ||
          note.getType() != llvm::ELF::NT_AMDGPU_METADATA)
        continue;
      llvm::msgpack::Document doc;
      // The notes are aligned as their section is (4 or 8 bytes).
      size_t align = std::max<size_t>(sec.sh_addralign, 4);
      if (!doc.readFromBlob(note.getDescAsStringRef(align), /*Multi=*/false))
        throw std::invalid_argument(
            "not a readable code object: the AMDGPU metadata note is not "
            "msgpack");
      llvm::msgpack::DocNode &root = doc.getRoot();
      if (!root.isMap())
        continue;
      auto kernels = root.getMap().find(doc.getNode("amdhsa.kernels"));
      if (kernels == root.getMap().end() || !kernels->second.isArray())
        continue;
      for (llvm::msgpack::DocNode &k : kernels->second.getArray()) {
        if (!k.isMap())
          continue;
        llvm::msgpack::MapDocNode &map = k.getMap();
        auto name = map.find(doc.getNode(".name"));
        if (name == map.end() || !name->second.isString())
          continue;
        std::map<std::string, int64_t> &r = out[name->second.getString().str()];
        for (auto [key, as] : {std::pair{".vgpr_count", "vgprs"},
                               {".agpr_count", "agprs"},
                               {".sgpr_count", "sgprs"},
                               {".group_segment_fixed_size", "lds_bytes"},
                               {".private_segment_fixed_size", "scratch_bytes"},
                               {".wavefront_size", "wavefront_size"}}) {
          auto it = map.find(doc.getNode(key));
          if (it == map.end())
            continue;
          if (it->second.getKind() == llvm::msgpack::Type::UInt)
            r[as] = static_cast<int64_t>(it->second.getUInt());
          else if (it->second.getKind() == llvm::msgpack::Type::Int)
            r[as] = it->second.getInt();
        }
      }
    }
    if (err)
      fail("notes", std::move(err));
  }
}

/// The kernels of an NVIDIA cubin: static shared memory and registers.
void readCubin(const llvm::object::ELFFile<ELF> &file, Resources &out) {
  auto sections = check(file.sections(), "sections");
  // Symbol index -> name, for EIATTR_REGCOUNT's records.
  std::vector<std::string> symbolNames;
  for (const ELF::Shdr &sec : sections) {
    if (sec.sh_type != llvm::ELF::SHT_SYMTAB)
      continue;
    auto strtab = check(file.getStringTableForSymtab(sec), "symbol names");
    for (const ELF::Sym &sym : check(file.symbols(&sec), "symbols"))
      symbolNames.push_back(check(sym.getName(strtab), "a symbol name").str());
  }
  // Shared memory CUDA reserves per block on sm_80 and later.
  constexpr int64_t kReservedSharedBytes = 1024;
  int64_t reserved = 0;
  std::map<std::string, int64_t> shared;
  for (const ELF::Shdr &sec : sections) {
    llvm::StringRef name = check(file.getSectionName(sec), "a section name");
    // Every kernel has a .text.<kernel> section; no .nv.shared.<kernel>
    // means no static shared memory.
    if (name.starts_with(".text."))
      out[name.drop_front(strlen(".text.")).str()].emplace("shared_bytes", 0);
    if (name.consume_front(".nv.shared.")) {
      if (name.starts_with("reserved."))
        reserved = kReservedSharedBytes;
      else
        shared[name.str()] = static_cast<int64_t>(sec.sh_size);
    }
    if (name != ".nv.info")
      continue;
    llvm::ArrayRef<uint8_t> data =
        check(file.getSectionContents(sec), ".nv.info");
    // Records: format (1 byte), attribute (1 byte), then for EIFMT_SVAL
    // (4) a 16-bit size and that many bytes, else a 16-bit value.
    constexpr uint8_t kSVal = 4, kRegCount = 0x2f;
    size_t at = 0;
    while (at + 4 <= data.size()) {
      uint8_t format = data[at], attribute = data[at + 1];
      uint16_t size = data[at + 2] | (data[at + 3] << 8);
      at += 4;
      if (format != kSVal)
        continue;
      if (at + size > data.size())
        break;
      if (attribute == kRegCount && size == 8) {
        auto word = [&](size_t i) {
          return uint32_t(data[i]) | uint32_t(data[i + 1]) << 8 |
                 uint32_t(data[i + 2]) << 16 | uint32_t(data[i + 3]) << 24;
        };
        uint32_t symbol = word(at), count = word(at + 4);
        if (symbol < symbolNames.size())
          out[symbolNames[symbol]]["registers"] = count;
      }
      at += size;
    }
  }
  for (auto &[kernel, bytes] : shared) {
    if (bytes < reserved)
      throw std::invalid_argument(
          "not a readable code object: the shared memory of '" + kernel +
          "' (" + std::to_string(bytes) +
          " bytes) does not hold the reserved " + std::to_string(reserved));
    out[kernel]["shared_bytes"] = bytes - reserved;
  }
}

py::dict codeObjectResources(const py::bytes &bytes) {
  std::string data = bytes;
  py::dict result;
  if (data.size() < 4 || data.compare(0, 4,
                                      "\x7f"
                                      "ELF") != 0)
    return result; // PTX or assembly text: nothing is allocated yet.
  // Both GPU formats are 64-bit little-endian ELF; ELFFile does not check.
  if (data.size() < llvm::ELF::EI_NIDENT ||
      data[llvm::ELF::EI_CLASS] != llvm::ELF::ELFCLASS64 ||
      data[llvm::ELF::EI_DATA] != llvm::ELF::ELFDATA2LSB)
    throw std::invalid_argument("not a readable code object: not a 64-bit "
                                "little-endian ELF file");
  auto file = check(llvm::object::ELFFile<ELF>::create(data), "ELF");
  Resources out;
  uint16_t machine = file.getHeader().e_machine;
  if (machine == llvm::ELF::EM_AMDGPU)
    readAMDGPU(file, out);
  else if (machine == llvm::ELF::EM_CUDA)
    readCubin(file, out);
  else
    throw std::invalid_argument("not a code object of a GPU: ELF machine " +
                                std::to_string(machine));
  for (auto &[kernel, values] : out) {
    py::dict d;
    for (auto &[k, v] : values)
      d[py::str(k)] = v;
    result[py::str(kernel)] = d;
  }
  return result;
}

} // namespace

void bindCodeObjects(py::module_ &m) {
  m.def("code_object_resources", &codeObjectResources, py::arg("binary"),
        "What each kernel of a compiled code object uses, by kernel name: "
        "for an AMDGPU code object vgprs, agprs, sgprs, lds_bytes, "
        "scratch_bytes, wavefront_size (its metadata note); for a cubin "
        "registers and shared_bytes (static shared memory); for PTX or "
        "assembly text, an empty dict. ValueError if the bytes are an ELF "
        "file of no GPU or cannot be read.");
}

} // namespace layout_python
