//===- layout-fuzz.cpp - Mutation fuzzer of the layout dialect ------------===//
//
// Part of the layout-opt project.
//
//===----------------------------------------------------------------------===//
//
// A seeded mutation fuzzer over the project's own inputs. The corpus is
// every .mlir file under the given paths (the tests and examples), cut at
// `// -----` into separate inputs. Input i (of a run with seed S) is a
// corpus input chosen and mutated by a generator seeded with (S, i), so any
// input can be regenerated alone (--print i). Mutations: integer literals
// replaced by edge values (0, -1, powers of two around 2^31, 2^32, 2^62,
// 2^63 - 1, -2^63, +-1 of the original), transform kinds swapped, lines
// deleted, duplicated, swapped or spliced in from another input.
//
// Each input runs in a forked child with a time limit: it is parsed, run
// through one pipeline of the project's passes (chosen by the same
// generator), verified, printed and parsed again. Rejecting an input with a
// diagnostic is a correct outcome. A finding is anything else: a crash (any
// signal), a hang (past --timeout), a module that fails the verifier after
// every pass succeeded, a printed module that does not parse back, or a
// sanitizer report (the sanitizers exit non-zero). Findings are written to
// --findings and make the exit code 1.
//
//===----------------------------------------------------------------------===//

#include "../common/Registration.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace mlir;
namespace cl = llvm::cl;

static cl::list<std::string> corpusPaths(cl::Positional,
                                         cl::desc("<corpus files or dirs>"),
                                         cl::OneOrMore);
static cl::opt<uint64_t> seed("seed", cl::desc("generator seed"), cl::init(1));
static cl::opt<uint64_t> runs("runs", cl::desc("inputs to run"),
                              cl::init(1000));
static cl::opt<unsigned> jobs("jobs", cl::desc("inputs run at once"),
                              cl::init(1));
static cl::opt<unsigned>
    timeout("timeout", cl::desc("seconds one input may take"), cl::init(60));
static cl::opt<std::string> findingsDir("findings",
                                        cl::desc("where findings are written"),
                                        cl::init("layout-fuzz-findings"));
static cl::opt<int64_t>
    printOnly("print", cl::desc("print input i (and its pipeline) and exit"),
              cl::init(-1));
static cl::opt<int64_t> runOnly("only", cl::desc("run input i alone"),
                                cl::init(-1));

namespace {

/// The pipelines an input may go through; the GPU ones stop at PTX / AMDGPU
/// assembly (format=isa: no ptxas, device libraries or linker).
const char *const kPipelines[] = {
    "canonicalize",
    "canonicalize,cse",
    "convert-layout-to-affine",
    "convert-layout-to-vector",
    "layout-to-llvm",
    "layout-tile-shared-memory",
    "layout-xor-swizzle{chip=gfx942},layout-tile-shared-memory",
    "layout-tile-shared-memory,layout-xor-swizzle{chip=sm_90},canonicalize",
#ifdef LAYOUT_INCLUDE_TESTS
    "layout-tile-shared-memory,layout-test-gpu-to-loops,layout-to-llvm",
#endif
    "layout-to-nvvm{chip=sm_90 format=isa}",
    "layout-to-rocdl{chip=gfx942 format=isa}",
};

const char *const kKinds[] = {"pass_through", "pad",    "left_pad", "right_pad",
                              "embed",        "merge",  "unmerge",  "replicate",
                              "freeze",       "offset", "slice",    "modulo",
                              "xor",          "rotate", "swizzle",  "sunder"};

const int64_t kEdgeValues[] = {0,
                               1,
                               -1,
                               2,
                               3,
                               7,
                               8,
                               31,
                               32,
                               33,
                               63,
                               64,
                               1024,
                               65536,
                               65537,
                               (int64_t(1) << 31) - 1,
                               int64_t(1) << 31,
                               int64_t(1) << 32,
                               int64_t(1) << 62,
                               INT64_MAX,
                               INT64_MIN,
                               -(int64_t(1) << 31)};

using Rng = std::mt19937_64;

uint64_t pick(Rng &rng, uint64_t n) {
  return std::uniform_int_distribution<uint64_t>(0, n - 1)(rng);
}

/// The corpus: every input, in a fixed order (paths sorted).
std::vector<std::string> loadCorpus() {
  std::vector<std::string> files;
  for (const std::string &path : corpusPaths) {
    if (!llvm::sys::fs::is_directory(path)) {
      files.push_back(path);
      continue;
    }
    std::error_code ec;
    for (llvm::sys::fs::recursive_directory_iterator it(path, ec), end;
         it != end && !ec; it.increment(ec))
      if (llvm::sys::path::extension(it->path()) == ".mlir")
        files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  std::vector<std::string> inputs;
  for (const std::string &file : files) {
    auto buffer = llvm::MemoryBuffer::getFile(file);
    if (!buffer)
      continue;
    llvm::SmallVector<llvm::StringRef> parts;
    llvm::StringRef text = (*buffer)->getBuffer();
    // Split at lines that are exactly `// -----`.
    size_t start = 0;
    while (start <= text.size()) {
      size_t at = text.find("\n// -----", start);
      if (at == llvm::StringRef::npos) {
        parts.push_back(text.substr(start));
        break;
      }
      parts.push_back(text.slice(start, at + 1));
      size_t next = text.find('\n', at + 1);
      start = next == llvm::StringRef::npos ? text.size() + 1 : next + 1;
    }
    // Comment lines go: mutations should land in the IR.
    for (llvm::StringRef p : parts) {
      std::string code;
      llvm::SmallVector<llvm::StringRef> lines;
      p.split(lines, '\n');
      for (llvm::StringRef l : lines)
        if (!l.ltrim().starts_with("//"))
          code += l.str() + "\n";
      if (llvm::StringRef(code).contains("layout.") ||
          llvm::StringRef(code).contains("gpu.func"))
        inputs.push_back(std::move(code));
    }
  }
  return inputs;
}

std::vector<std::string> splitLines(const std::string &text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos)
      end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

std::string joinLines(const std::vector<std::string> &lines) {
  std::string out;
  for (const std::string &l : lines)
    out += l + "\n";
  return out;
}

/// The integer literals of `text` outside names (%c0, f32, @k1, #map2):
/// (position, length).
std::vector<std::pair<size_t, size_t>> integerLiterals(const std::string &t) {
  std::vector<std::pair<size_t, size_t>> found;
  for (size_t i = 0; i < t.size(); ++i) {
    if (!isdigit(static_cast<unsigned char>(t[i])))
      continue;
    size_t start = i;
    if (start > 0 && t[start - 1] == '-')
      --start;
    char before = start > 0 ? t[start - 1] : ' ';
    size_t end = i;
    while (end < t.size() && isdigit(static_cast<unsigned char>(t[end])))
      ++end;
    char after = end < t.size() ? t[end] : ' ';
    bool inName = isalnum(static_cast<unsigned char>(before)) ||
                  before == '_' || before == '%' || before == '@' ||
                  before == '#' || before == '^' || before == '.' ||
                  isalpha(static_cast<unsigned char>(after)) || after == '_';
    if (!inName)
      found.push_back({start, end - start});
    i = end;
  }
  return found;
}

/// One mutation of `text`.
void mutate(std::string &text, const std::vector<std::string> &corpus,
            Rng &rng) {
  // Integer literals most often: they reach the verifiers and the passes'
  // arithmetic; line edits mostly break SSA and stop at the parser.
  switch (pick(rng, 10)) {
  case 0:
  case 1:
  case 2:
  case 3:
  case 4:
  case 5: { // an integer literal becomes an edge value or a neighbour
    auto literals = integerLiterals(text);
    if (literals.empty())
      return;
    auto [pos, len] = literals[pick(rng, literals.size())];
    int64_t old = 0;
    llvm::StringRef(text).substr(pos, len).getAsInteger(10, old);
    int64_t v;
    // The neighbours wrap around (2^63 - 1 + 1 is -2^63): computed in
    // uint64_t, where wrapping is defined (UBSan found the signed overflow).
    switch (pick(rng, 4)) {
    case 0:
      v = int64_t(uint64_t(old) + 1);
      break;
    case 1:
      v = int64_t(uint64_t(old) - 1);
      break;
    case 2:
      v = static_cast<int64_t>(pick(rng, 200)) - 100;
      break;
    default:
      v = kEdgeValues[pick(rng, std::size(kEdgeValues))];
    }
    text.replace(pos, len, std::to_string(v));
    return;
  }
  case 6: { // another transform kind
    size_t at = text.find("#layout.");
    std::vector<size_t> sites;
    for (; at != std::string::npos; at = text.find("#layout.", at + 1))
      sites.push_back(at + 8);
    if (sites.empty())
      return;
    size_t s = sites[pick(rng, sites.size())];
    size_t e = s;
    while (e < text.size() &&
           (isalnum(static_cast<unsigned char>(text[e])) || text[e] == '_'))
      ++e;
    text.replace(s, e - s, kKinds[pick(rng, std::size(kKinds))]);
    return;
  }
  default: { // line edits
    std::vector<std::string> lines = splitLines(text);
    if (lines.empty())
      return;
    size_t a = pick(rng, lines.size()), b = pick(rng, lines.size());
    switch (pick(rng, 4)) {
    case 0:
      lines.erase(lines.begin() + a);
      break;
    case 1:
      lines.insert(lines.begin() + a, lines[a]);
      break;
    case 2:
      std::swap(lines[a], lines[b]);
      break;
    default: {
      std::vector<std::string> other =
          splitLines(corpus[pick(rng, corpus.size())]);
      if (!other.empty())
        lines.insert(lines.begin() + a, other[pick(rng, other.size())]);
    }
    }
    text = joinLines(lines);
  }
  }
}

struct Input {
  std::string text;
  std::string pipeline;
};

/// Input `i`: a corpus input, 1 to 4 mutations, a pipeline.
Input makeInput(const std::vector<std::string> &corpus, uint64_t i) {
  std::seed_seq seq{uint32_t(seed), uint32_t(seed >> 32), uint32_t(i),
                    uint32_t(i >> 32)};
  Rng rng(seq);
  Input in;
  in.text = corpus[pick(rng, corpus.size())];
  uint64_t count = pick(rng, 2) ? 1 : 2 + pick(rng, 3);
  for (uint64_t k = 0; k < count; ++k)
    mutate(in.text, corpus, rng);
  in.pipeline = kPipelines[pick(rng, std::size(kPipelines))];
  return in;
}

/// Exit codes of a child. The correct outcomes: the input does not parse,
/// the pipeline fails with a diagnostic, or it succeeds and the result
/// verifies and prints back. Findings: any other code or a signal.
enum : int {
  kNotParsed = 0,
  kPipelineFailed = 10,
  kPipelineSucceeded = 11,
  kKnownUpstreamBug = 12,
  kVerifierAfterSuccess = 70,
  kRoundTrip = 71
};

/// Runs `in` in this process; returns the exit code.
/// Whether `module` would hit a bug of Debian's MLIR 22 that upstream has
/// fixed since, outside this project's code:
///  - -canonicalize folding a `memref.dim` whose constant index is outside
///    the rank inside a gpu.func crashes (llvm/llvm-project#205073, fixed
///    by #205338 after the 22 branch);
///  - -canonicalize folding a negative constant offset or size into a
///    `memref.reinterpret_cast` leaves IR its verifier rejects, or asserts
///    (llvm/llvm-project#188407, fixed by #189237 and #189533 after 22).
/// Such inputs are counted, not run.
bool hitsKnownUpstreamBug(ModuleOp module) {
  bool hits = false;
  module.walk([&](memref::DimOp dim) {
    std::optional<int64_t> index = dim.getConstantIndex();
    auto type = dyn_cast<MemRefType>(dim.getSource().getType());
    if (index && type && (*index < 0 || *index >= type.getRank()))
      hits = true;
  });
  module.walk([&](memref::ReinterpretCastOp cast) {
    for (Value v : llvm::concat<Value>(cast.getOffsets(), cast.getSizes())) {
      std::optional<int64_t> c = getConstantIntValue(v);
      if (c && *c < 0)
        hits = true;
    }
  });
  return hits;
}

int runInput(MLIRContext &ctx, const Input &in) {
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(in.text, &ctx, "<fuzz>");
  if (!module)
    return kNotParsed;
  if (hitsKnownUpstreamBug(*module))
    return kKnownUpstreamBug;
  PassManager pm(&ctx, ModuleOp::getOperationName(),
                 OpPassManager::Nesting::Implicit);
  // Verification is done once, at the end, to tell a pass that fails
  // cleanly from one that leaves invalid IR behind.
  pm.enableVerifier(false);
  if (failed(parsePassPipeline(in.pipeline, pm, llvm::nulls())))
    return kPipelineFailed;
  if (failed(pm.run(*module)))
    return kPipelineFailed;
  if (failed(verify(*module)))
    return kVerifierAfterSuccess;
  std::string printed;
  llvm::raw_string_ostream os(printed);
  module->print(os);
  OwningOpRef<ModuleOp> again =
      parseSourceString<ModuleOp>(printed, &ctx, "<printed>");
  if (!again)
    return kRoundTrip;
  return kPipelineSucceeded;
}

std::string describe(int status) {
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    if (sig == SIGALRM || sig == SIGKILL)
      return "hang (past " + std::to_string(timeout) + " s)";
    return std::string("crash (signal ") + strsignal(sig) + ")";
  }
  int code = WEXITSTATUS(status);
  if (code == kVerifierAfterSuccess)
    return "invalid IR after every pass succeeded";
  if (code == kRoundTrip)
    return "printed module does not parse back";
  return "exit code " + std::to_string(code) + " (a sanitizer report?)";
}

} // namespace

int main(int argc, char **argv) {
  layout::tools::registerPasses();
  cl::ParseCommandLineOptions(argc, argv, "layout-opt mutation fuzzer\n");

  DialectRegistry registry;
  layout::tools::registerDialects(registry);

  std::vector<std::string> corpus = loadCorpus();
  if (corpus.empty()) {
    llvm::errs() << "layout-fuzz: no .mlir inputs under the given paths\n";
    return 2;
  }
  if (printOnly >= 0) {
    Input in = makeInput(corpus, printOnly);
    llvm::outs() << "// pipeline: " << in.pipeline << "\n" << in.text;
    return 0;
  }

  auto start = std::chrono::steady_clock::now();
  uint64_t first = runOnly >= 0 ? uint64_t(runOnly) : 0;
  uint64_t last = runOnly >= 0 ? first + 1 : uint64_t(runs);
  uint64_t findings = 0, done = 0;
  std::map<int, uint64_t> outcomes;
  llvm::outs().flush();
  llvm::errs().flush();
  auto benign = [](int code) {
    return code == kNotParsed || code == kPipelineFailed ||
           code == kPipelineSucceeded || code == kKnownUpstreamBug;
  };

  // A child runs a batch of inputs in one context, writing one outcome byte
  // per input to a pipe and stopping at the first finding. A batch that
  // does not finish cleanly has its unfinished inputs run again one per
  // child, so that each finding is pinned to its input.
  struct Child {
    uint64_t begin, end;
    int pipe;
  };
  std::map<pid_t, Child> running;
  auto spawn = [&](uint64_t begin, uint64_t end) -> bool {
    int fds[2];
    if (pipe(fds) != 0)
      return false;
    pid_t pid = fork();
    if (pid < 0)
      return false;
    if (pid == 0) {
      close(fds[0]);
#ifndef __SANITIZE_ADDRESS__
      // An input that asks for unbounded memory fails (bad_alloc, a crash
      // finding) instead of taking the machine down; ASan keeps its own
      // limit (it reserves far more address space than it uses).
      struct rlimit limit = {rlim_t(4) << 30, rlim_t(4) << 30};
      setrlimit(RLIMIT_AS, &limit);
#endif
      MLIRContext ctx(registry, MLIRContext::Threading::DISABLED);
      // Diagnostics are the expected answer to bad input: keep them quiet.
      ScopedDiagnosticHandler quiet(&ctx,
                                    [](Diagnostic &) { return success(); });
      for (uint64_t i = begin; i < end; ++i) {
        // Each input gets the whole time limit (SIGALRM ends a hang).
        alarm(timeout);
        int code = runInput(ctx, makeInput(corpus, i));
        char byte = char(code);
        if (write(fds[1], &byte, 1) != 1)
          _exit(2);
        if (!benign(code))
          _exit(code);
      }
      _exit(0);
    }
    close(fds[1]);
    running[pid] = {begin, end, fds[0]};
    return true;
  };
  auto report = [&](uint64_t i, const std::string &why) {
    ++findings;
    Input in = makeInput(corpus, i);
    llvm::sys::fs::create_directories(findingsDir);
    std::string path = (llvm::Twine(findingsDir) + "/seed" + llvm::Twine(seed) +
                        "-input" + llvm::Twine(i) + ".mlir")
                           .str();
    std::error_code ec;
    llvm::raw_fd_ostream out(path, ec);
    if (!ec)
      out << "// layout-fuzz --seed " << seed << " --only " << i << ": " << why
          << "\n// pipeline: " << in.pipeline << "\n"
          << in.text;
    llvm::errs() << "FINDING input " << i << ": " << why << " (" << path
                 << ")\n";
  };
  std::vector<uint64_t> retry;
  uint64_t next = first;
  const uint64_t batch = 50;
  while (next < last || !retry.empty() || !running.empty()) {
    while (running.size() < std::max(1u, unsigned(jobs)) &&
           (next < last || !retry.empty())) {
      bool ok;
      if (!retry.empty()) {
        uint64_t i = retry.back();
        retry.pop_back();
        ok = spawn(i, i + 1);
      } else {
        uint64_t end = std::min(last, next + batch);
        ok = spawn(next, end);
        next = end;
      }
      if (!ok) {
        llvm::errs() << "layout-fuzz: fork or pipe failed\n";
        return 2;
      }
    }
    int status = 0;
    pid_t pid = waitpid(-1, &status, 0);
    if (pid <= 0 || !running.count(pid))
      continue;
    Child c = running[pid];
    running.erase(pid);
    std::string bytes;
    char buffer[256];
    ssize_t n;
    while ((n = read(c.pipe, buffer, sizeof buffer)) > 0)
      bytes.append(buffer, size_t(n));
    close(c.pipe);
    // The inputs that finished with a correct outcome count; the rest of a
    // batch (from the one that went wrong) is run again one per child.
    size_t good = 0;
    while (good < bytes.size() &&
           benign(static_cast<unsigned char>(bytes[good])))
      ++outcomes[static_cast<unsigned char>(bytes[good++])];
    done += good;
    bool clean = WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
                 good == c.end - c.begin;
    if (clean)
      continue;
    if (c.end - c.begin == 1) {
      ++done;
      report(c.begin, describe(status));
      continue;
    }
    for (uint64_t i = c.end; i-- > c.begin + good;)
      retry.push_back(i);
  }
  double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  llvm::outs() << "layout-fuzz: seed " << seed << ", " << done
               << " inputs from a corpus of " << corpus.size() << " in "
               << llvm::format("%.1f", secs) << " s: " << outcomes[kNotParsed]
               << " rejected by the parser, " << outcomes[kPipelineFailed]
               << " by a pass (diagnostic), " << outcomes[kPipelineSucceeded]
               << " through the pipeline (verified, printed, parsed back), "
               << outcomes[kKnownUpstreamBug]
               << " not run (upstream bugs llvm/llvm-project#205073, #188407); "
               << findings << " findings\n";
  return findings ? 1 : 0;
}
