//===- BankModel.cpp - Conflicts of one wave's access ---------------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//

#include "layout/Target/BankModel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <tuple>

using namespace mlir;
using namespace mlir::layout;
using llvm::ArrayRef;
using llvm::SmallVector;

ConflictCount
mlir::layout::countConflicts(const Chip &chip, SharedAccessKind kind,
                             ArrayRef<std::optional<int64_t>> laneBytes,
                             unsigned accessBytes,
                             ArrayRef<unsigned> laneClass) {
  Chip::PhaseRule rule = chip.phaseRule(accessBytes, kind);
  ConflictCount count;
  // (bank, class, word) of every word a phase touches; the ways of a bank
  // are its distinct (class, word) pairs.
  SmallVector<std::tuple<int64_t, unsigned, int64_t>, 128> words;
  for (ArrayRef<unsigned> phase : rule.phases) {
    words.clear();
    for (unsigned lane : phase) {
      if (lane >= laneBytes.size() || !laneBytes[lane])
        continue;
      int64_t address = *laneBytes[lane];
      unsigned cls = laneClass.empty() ? 0 : laneClass[lane];
      int64_t begin = chip.wordOf(address);
      int64_t end = chip.wordOf(address + accessBytes - 1);
      for (int64_t w = begin; w <= end; ++w)
        words.push_back({Chip::bankOfWord(w, rule.numBanks), cls, w});
    }
    if (words.empty())
      continue;
    llvm::sort(words);
    words.erase(std::unique(words.begin(), words.end()), words.end());
    unsigned ways = 0, run = 0;
    for (size_t i = 0; i < words.size(); ++i) {
      run =
          i && std::get<0>(words[i]) == std::get<0>(words[i - 1]) ? run + 1 : 1;
      ways = std::max(ways, run);
    }
    ++count.phases;
    count.cycles += ways;
    count.maxWays = std::max(count.maxWays, ways);
  }
  return count;
}

bool mlir::layout::isOddWordRow(int64_t rowLength, int64_t elementBytes) {
  if (elementBytes <= 4) {
    int64_t bytes = rowLength * elementBytes;
    return bytes % 4 == 0 && (bytes / 4) % 2 == 1;
  }
  return rowLength % 2 == 1;
}

std::optional<int64_t>
mlir::layout::paddedRowLength(int64_t length, int64_t elementBytes,
                              int64_t step,
                              llvm::function_ref<bool(int64_t)> conflictFree) {
  for (int64_t k = 0; k <= kMaxRowPaddingSteps; ++k) {
    int64_t n = length + k * step;
    if (conflictFree ? conflictFree(n) : isOddWordRow(n, elementBytes))
      return n;
  }
  return std::nullopt;
}
