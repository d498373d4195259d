//===- LayoutPicture.h - Pictures of 2-D descriptors ------------*- C++ -*-===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// Draws a rank-2 descriptor as a grid: one cell per top coordinate with its
// element offset, its workgroup-memory bank on a chip, and the lane of a
// wave that touches it for an access (a wave reading along rows or down
// columns, or what a kernel's access really does: PictureAccess::Kernel). As
// text for the terminal, as SVG (cells coloured by bank), and as LaTeX (TikZ,
// as CuTe's print_latex). The conflicts of the drawn access are counted by the
// bank model's own countConflicts, so a picture and
// -layout-analyze-bank-conflicts never disagree.
//
// `-layout-show` draws every descriptor of a module this way; the Python
// package's Descriptor.show() / to_svg() / to_latex() call the same code.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_TRANSFORMS_LAYOUTPICTURE_H
#define LAYOUT_TRANSFORMS_LAYOUTPICTURE_H

#include "layout/Evaluator/Descriptor.h"
#include "layout/Target/BankModel.h"
#include "layout/Target/Chip.h"

#include <optional>
#include <string>

namespace mlir {
namespace layout {

/// How a wave touches the drawn tile, from coordinate (0, 0): lane l at
/// (l / cols, l % cols) along rows, or (l % rows, l / rows) down columns,
/// for the first wave-size coordinates; or, for -layout-show's access=kernel,
/// as a kernel's access does (PictureOptions::kernelAccess).
enum class PictureAccess : uint8_t { None, Rows, Columns, Kernel };

/// What the first wave of a kernel's workgroup-memory access does to the
/// buffer its descriptor indexes (access=kernel), as the bank-conflict
/// analysis's address interpreter evaluates it (sampleFirstWave).
struct KernelAccessPicture {
  /// The element offset (the descriptor's) at which each lane's access
  /// starts; std::nullopt where the lane does not access.
  llvm::SmallVector<std::optional<int64_t>> laneOffsets;
  /// The elements each lane touches from there (a vector's).
  int64_t elements = 1;
  /// The bank model's count of the wave, from the lanes' byte addresses.
  ConflictCount count;
  /// "vector.load of 16 bytes", for the header.
  std::string what;
};

struct PictureOptions {
  /// The chip whose banks are drawn (none: offsets only).
  std::optional<Chip> chip;
  /// Bytes per element (the bank of offset o is (o * bytes / bank bytes)
  /// mod banks).
  int64_t elementBytes = 4;
  PictureAccess access = PictureAccess::None;
  /// The kernel's access drawn for PictureAccess::Kernel.
  std::optional<KernelAccessPicture> kernelAccess;
  /// A title line (the op, say).
  std::string title;
  /// What drawPicture draws: "text", "svg" or "latex".
  std::string format = "text";
};

/// The options from their spellings, as -layout-show and Descriptor.show
/// take them (an empty chip: none), each checked with a message naming the
/// option and its allowed values.
llvm::Expected<PictureOptions> makePictureOptions(llvm::StringRef chip,
                                                  int64_t elementBytes,
                                                  llvm::StringRef access,
                                                  llvm::StringRef format);

/// Parses "none", "rows", "columns" or "kernel".
llvm::Expected<PictureAccess> parsePictureAccess(llvm::StringRef text);

/// The picture as text, SVG or LaTeX. Fails (saying why) for a descriptor
/// that is not rank 2, a bad element size, or a grid larger than 128 x 128.
llvm::Expected<std::string> drawText(const Descriptor &d,
                                     const PictureOptions &options);
llvm::Expected<std::string> drawSvg(const Descriptor &d,
                                    const PictureOptions &options);
llvm::Expected<std::string> drawLatex(const Descriptor &d,
                                      const PictureOptions &options);
/// The picture in `options.format`.
llvm::Expected<std::string> drawPicture(const Descriptor &d,
                                        const PictureOptions &options);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_TRANSFORMS_LAYOUTPICTURE_H
