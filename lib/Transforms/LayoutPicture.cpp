//===- LayoutPicture.cpp - Pictures of 2-D descriptors --------------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "layout/Transforms/LayoutPicture.h"
#include "layout/Transforms/BankConflicts.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <map>

using namespace mlir;
using namespace mlir::layout;

static llvm::Error pictureError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

llvm::Expected<PictureAccess>
mlir::layout::parsePictureAccess(llvm::StringRef text) {
  std::optional<PictureAccess> a =
      llvm::StringSwitch<std::optional<PictureAccess>>(text)
          .Case("none", PictureAccess::None)
          .Case("rows", PictureAccess::Rows)
          .Case("columns", PictureAccess::Columns)
          .Case("kernel", PictureAccess::Kernel)
          .Default(std::nullopt);
  if (!a)
    return pictureError("access must be none, rows, columns or kernel, got '" +
                        text + "'");
  return *a;
}

namespace {
/// What a picture shows, cell by cell (row-major).
struct Grid {
  int64_t rows = 0, cols = 0;
  std::vector<int64_t> offset; // -1: not a valid coordinate
  std::vector<int64_t> bank;   // -1: no chip, or invalid
  std::vector<int64_t> lane;   // -1: no lane touches it
  std::string header;          // the element size, chip and access
};
} // namespace

static constexpr int64_t kMaxPictureSide = 128;

static llvm::Error checkElementBytes(int64_t bytes) {
  if (bytes < 1 || bytes > 16 || !llvm::isPowerOf2_64(bytes))
    return pictureError(llvm::formatv(
        "element-bytes must be 1, 2, 4, 8 or 16, got {0}", bytes));
  return llvm::Error::success();
}

/// Marks the cells the first wave of a generic access touches (lane l
/// along rows or down columns) and counts its conflicts.
static llvm::Expected<ConflictCount> markGenericWave(Grid &g,
                                                     const PictureOptions &o) {
  unsigned wave = o.chip->waveSize;
  llvm::SmallVector<std::optional<int64_t>, 64> laneBytes(wave);
  for (unsigned l = 0; l < wave; ++l) {
    int64_t r = o.access == PictureAccess::Rows ? l / g.cols : l % g.rows;
    int64_t c = o.access == PictureAccess::Rows ? l % g.cols : l / g.rows;
    if (r >= g.rows || c >= g.cols)
      continue;
    int64_t cell = r * g.cols + c;
    if (g.offset[cell] < 0)
      continue;
    std::optional<int64_t> bytes = checkedMul(g.offset[cell], o.elementBytes);
    if (!bytes)
      return pictureError(llvm::formatv(
          "the byte address of offset {0} overflows int64", g.offset[cell]));
    g.lane[cell] = l;
    laneBytes[l] = *bytes;
  }
  return countConflicts(*o.chip, SharedAccessKind::Read, laneBytes,
                        static_cast<unsigned>(o.elementBytes));
}

/// Marks the cells a kernel's access touches in its first wave: lane l on
/// the `elements` offsets from its own (every cell of an offset; the first
/// lane where several touch one). The count is the interpreter's.
static llvm::Expected<ConflictCount> markKernelWave(Grid &g,
                                                    const PictureOptions &o) {
  if (!o.kernelAccess)
    return pictureError("access=kernel draws the accesses of kernels: run "
                        "-layout-show on a module of gpu.funcs");
  const KernelAccessPicture &k = *o.kernelAccess;
  std::map<int64_t, llvm::SmallVector<int64_t, 1>> cellsAt;
  for (int64_t cell = 0, n = g.rows * g.cols; cell < n; ++cell)
    if (g.offset[cell] >= 0)
      cellsAt[g.offset[cell]].push_back(cell);
  for (auto [l, start] : llvm::enumerate(k.laneOffsets)) {
    if (!start)
      continue;
    for (int64_t e = 0; e < k.elements; ++e) {
      auto it = cellsAt.find(*start + e);
      if (it == cellsAt.end())
        continue;
      for (int64_t cell : it->second)
        if (g.lane[cell] < 0)
          g.lane[cell] = l;
    }
  }
  return k.count;
}

/// "a wave reading along rows", "the first wave of vector.load of 16
/// bytes".
static std::string describeWave(const PictureOptions &o) {
  if (o.access == PictureAccess::Kernel)
    return "the first wave of " + o.kernelAccess->what;
  return std::string("a wave reading ") +
         (o.access == PictureAccess::Rows ? "along rows" : "down columns");
}

static llvm::Expected<Grid> layoutGrid(const Descriptor &d,
                                       const PictureOptions &o) {
  if (d.getRank() != 2)
    return pictureError(llvm::formatv(
        "a picture needs a rank-2 descriptor, got rank {0}", d.getRank()));
  if (llvm::Error e = checkElementBytes(o.elementBytes))
    return std::move(e);
  Grid g;
  g.rows = d.getLengths()[0];
  g.cols = d.getLengths()[1];
  if (g.rows > kMaxPictureSide || g.cols > kMaxPictureSide)
    return pictureError(llvm::formatv(
        "a picture is at most {0} x {0} cells, the descriptor is {1} x {2}",
        kMaxPictureSide, g.rows, g.cols));
  int64_t n = g.rows * g.cols;
  g.offset.assign(n, -1);
  g.bank.assign(n, -1);
  g.lane.assign(n, -1);
  for (int64_t r = 0; r < g.rows; ++r)
    for (int64_t c = 0; c < g.cols; ++c) {
      Evaluation e = d.evaluate({r, c});
      if (!e.valid)
        continue;
      g.offset[r * g.cols + c] = e.offset;
      // The bank of the element's first byte (the chip's mapping).
      if (o.chip) {
        std::optional<int64_t> bytes = checkedMul(e.offset, o.elementBytes);
        if (!bytes)
          return pictureError(llvm::formatv(
              "the byte address of offset {0} overflows int64", e.offset));
        g.bank[r * g.cols + c] =
            Chip::bankOfWord(o.chip->wordOf(*bytes), o.chip->numBanks);
      }
    }
  llvm::raw_string_ostream h(g.header);
  h << "!layout.desc<" << g.rows << "x" << g.cols << ">, " << o.elementBytes
    << "-byte elements";
  if (o.chip)
    h << ", " << o.chip->name << ": " << o.chip->numBanks << " banks of "
      << o.chip->bankBytes << " bytes";
  if (o.access == PictureAccess::None || !o.chip)
    return g;
  llvm::Expected<ConflictCount> count = o.access == PictureAccess::Kernel
                                            ? markKernelWave(g, o)
                                            : markGenericWave(g, o);
  if (!count)
    return count.takeError();
  if (count->phases == 0) {
    // No lane accesses: a kernel's access under guards that are false
    // where it was sampled (another version of it runs there).
    h << "; " << describeWave(o) << ": no lane accesses"
      << (o.access == PictureAccess::Kernel
              ? " (guarded off in block 0, the first iteration, with "
                "run-time extents of 1024)"
              : "");
    return g;
  }
  h << "; " << describeWave(o) << ": " << count->cycles << " cycles for "
    << count->phases << " phase" << (count->phases == 1 ? "" : "s") << " ("
    << (count->maxWays <= 1 ? std::string("no conflict")
                            : std::to_string(count->maxWays) + "-way")
    << ")";
  return g;
}

llvm::Expected<std::string> mlir::layout::drawText(const Descriptor &d,
                                                   const PictureOptions &o) {
  llvm::Expected<Grid> grid = layoutGrid(d, o);
  if (!grid)
    return grid.takeError();
  const Grid &g = *grid;
  std::string s;
  llvm::raw_string_ostream os(s);
  if (!o.title.empty())
    os << o.title << "\n";
  os << g.header << "\n";
  auto table = [&](llvm::StringRef name, const std::vector<int64_t> &values) {
    int64_t widest = std::max<int64_t>(2, std::to_string(g.cols - 1).size());
    for (int64_t v : values)
      widest = std::max<int64_t>(widest, std::to_string(v).size());
    int64_t rowLabel = std::to_string(g.rows - 1).size();
    auto pad = [&](const std::string &text, int64_t width) {
      return std::string(std::max<int64_t>(0, width - text.size()), ' ') + text;
    };
    os << name << ":\n" << std::string(rowLabel, ' ');
    for (int64_t c = 0; c < g.cols; ++c)
      os << " " << pad(std::to_string(c), widest);
    os << "\n";
    for (int64_t r = 0; r < g.rows; ++r) {
      os << pad(std::to_string(r), rowLabel);
      for (int64_t c = 0; c < g.cols; ++c) {
        int64_t v = values[r * g.cols + c];
        os << " " << pad(v < 0 ? "." : std::to_string(v), widest);
      }
      os << "\n";
    }
  };
  table("offsets", g.offset);
  if (o.chip)
    table("banks", g.bank);
  if (o.chip && o.access != PictureAccess::None)
    table("lanes", g.lane);
  return s;
}

/// A colour per bank: hues around the circle, light enough for dark text.
static void bankColor(int64_t bank, int64_t numBanks, int &r, int &g, int &b) {
  if (bank < 0) {
    r = g = b = 255;
    return;
  }
  double h = 360.0 * double(bank) / double(numBanks), s = 0.65, l = 0.78;
  double c = (1 - std::fabs(2 * l - 1)) * s;
  double x = c * (1 - std::fabs(std::fmod(h / 60.0, 2) - 1));
  double m = l - c / 2;
  double rr = 0, gg = 0, bb = 0;
  if (h < 60)
    rr = c, gg = x;
  else if (h < 120)
    rr = x, gg = c;
  else if (h < 180)
    gg = c, bb = x;
  else if (h < 240)
    gg = x, bb = c;
  else if (h < 300)
    rr = x, bb = c;
  else
    rr = c, bb = x;
  r = int(std::lround((rr + m) * 255));
  g = int(std::lround((gg + m) * 255));
  b = int(std::lround((bb + m) * 255));
}

static std::string xmlEscape(llvm::StringRef text) {
  std::string out;
  for (char ch : text) {
    switch (ch) {
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '&':
      out += "&amp;";
      break;
    default:
      out += ch;
    }
  }
  return out;
}

llvm::Expected<std::string> mlir::layout::drawSvg(const Descriptor &d,
                                                  const PictureOptions &o) {
  llvm::Expected<Grid> grid = layoutGrid(d, o);
  if (!grid)
    return grid.takeError();
  const Grid &g = *grid;
  const int cell = 26, margin = 24, top = o.title.empty() ? 30 : 46;
  int64_t width = 2 * margin + g.cols * cell;
  int64_t height = top + margin + g.rows * cell;
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width
     << "\" height=\"" << height << "\" font-family=\"monospace\">\n"
     << "<style>rect{stroke:#999;stroke-width:0.5} rect.l{stroke:black;"
        "stroke-width:2} text{font-size:8px;text-anchor:middle} "
        "text.b{font-size:6px;fill:#333;text-anchor:start} "
        "text.l{font-size:6px;font-weight:bold;text-anchor:end} "
        "text.h{font-size:10px;text-anchor:start} "
        "text.t{font-size:12px;font-weight:bold;text-anchor:start}"
        "</style>\n";
  int line = 14;
  if (!o.title.empty()) {
    os << "<text class=\"t\" x=\"" << margin << "\" y=\"" << line << "\">"
       << xmlEscape(o.title) << "</text>\n";
    line += 16;
  }
  os << "<text class=\"h\" x=\"" << margin << "\" y=\"" << line << "\">"
     << xmlEscape(g.header) << "</text>\n";
  int64_t numBanks = o.chip ? o.chip->numBanks : 1;
  for (int64_t r = 0; r < g.rows; ++r)
    for (int64_t c = 0; c < g.cols; ++c) {
      int64_t i = r * g.cols + c;
      int64_t x = margin + c * cell, y = top + r * cell;
      int red, green, blue;
      bankColor(g.bank[i], numBanks, red, green, blue);
      bool touched = g.lane[i] >= 0;
      os << "<rect" << (touched ? " class=\"l\"" : "") << " x=\"" << x
         << "\" y=\"" << y << "\" width=\"" << cell << "\" height=\"" << cell
         << "\" fill=\"rgb(" << red << "," << green << "," << blue << ")\"/>";
      if (g.offset[i] >= 0)
        os << "<text x=\"" << x + cell / 2 << "\" y=\"" << y + cell / 2 + 1
           << "\">" << g.offset[i] << "</text>";
      if (g.bank[i] >= 0)
        os << "<text class=\"b\" x=\"" << x + 2 << "\" y=\"" << y + cell - 3
           << "\">b" << g.bank[i] << "</text>";
      if (touched)
        os << "<text class=\"l\" x=\"" << x + cell - 2 << "\" y=\"" << y + 8
           << "\">L" << g.lane[i] << "</text>";
      os << "\n";
    }
  os << "</svg>\n";
  return s;
}

llvm::Expected<std::string> mlir::layout::drawLatex(const Descriptor &d,
                                                    const PictureOptions &o) {
  llvm::Expected<Grid> grid = layoutGrid(d, o);
  if (!grid)
    return grid.takeError();
  const Grid &g = *grid;
  int64_t numBanks = o.chip ? o.chip->numBanks : 1;
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "% " << (o.title.empty() ? "" : o.title + ": ") << g.header << "\n";
  os << "\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},"
        "every node/.style={minimum size=1cm, outer sep=0pt}]\n";
  for (int64_t r = 0; r < g.rows; ++r)
    for (int64_t c = 0; c < g.cols; ++c) {
      int64_t i = r * g.cols + c;
      int red, green, blue;
      bankColor(g.bank[i], numBanks, red, green, blue);
      os << "\\node[fill={rgb,255:red," << red << ";green," << green << ";blue,"
         << blue << "}" << (g.lane[i] >= 0 ? ",draw=black,thick" : "")
         << "] at (" << r << "," << c << ") {"
         << (g.offset[i] >= 0 ? std::to_string(g.offset[i]) : "") << "};\n";
    }
  os << "\\end{tikzpicture}\n";
  return s;
}

llvm::Expected<std::string> mlir::layout::drawPicture(const Descriptor &d,
                                                      const PictureOptions &o) {
  if (o.format == "svg")
    return drawSvg(d, o);
  if (o.format == "latex")
    return drawLatex(d, o);
  if (o.format == "text")
    return drawText(d, o);
  return pictureError("format must be text, svg or latex, got '" + o.format +
                      "'");
}

llvm::Expected<PictureOptions>
mlir::layout::makePictureOptions(llvm::StringRef chip, int64_t elementBytes,
                                 llvm::StringRef access,
                                 llvm::StringRef format) {
  PictureOptions o;
  if (llvm::Error e = checkElementBytes(elementBytes))
    return std::move(e);
  o.elementBytes = elementBytes;
  if (!chip.empty()) {
    llvm::Expected<Chip> c = parseChip(chip);
    if (!c)
      return c.takeError();
    o.chip = *c;
  }
  llvm::Expected<PictureAccess> a = parsePictureAccess(access);
  if (!a)
    return a.takeError();
  o.access = *a;
  if (format != "text" && format != "svg" && format != "latex")
    return pictureError("format must be text, svg or latex, got '" + format +
                        "'");
  o.format = format.str();
  return o;
}
