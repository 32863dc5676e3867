//===--- FileFormats.cpp - every file format torch-tidy reads -------------===//
//
// To fuzz another file format, write a function that parses one whole file
// from memory and does with it what the tool does next, then add ONE line to
// Formats[] at the end of this file (and, if the parser lives in a library
// the fuzzer does not link yet, name that library in
// TORCH_TIDY_FUZZ_FORMAT_LIBS in CMakeLists.txt).
//
//===----------------------------------------------------------------------===//

#include "test/fuzz/FileFormats.h"

#include "driver/report/Baseline.h"
#include "driver/engine/Dependencies.h"
#include "driver/report/Findings.h"
#include "base/ResultFile.h"
#include "runtime_verify/instrument/Growth.h"
#include "checks/analysis/SummaryData.h"

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <memory>
#include <string>

using namespace clang;
using namespace clang::tidy;

namespace {

// `.clang-tidy` files and `--config`: parsed, merged over the defaults, shown
// by --dump-config, and handed to every torch-* check, whose constructor reads
// and validates its options.
void parseClangTidyConfig(llvm::StringRef Bytes) {
  llvm::MemoryBufferRef Buffer(Bytes, ".clang-tidy");
  (void)parseConfiguration(Buffer);
  llvm::ErrorOr<ClangTidyOptions> Parsed =
      parseConfigurationWithDiags(Buffer, [](const llvm::SMDiagnostic &) {});
  if (!Parsed)
    return;
  ClangTidyOptions Options = ClangTidyOptions::getDefaults();
  Options.mergeWith(*Parsed, 1);
  (void)getCheckNames(Options, /*AllowEnablingAnalyzerAlphaCheckers=*/false);
  std::string Dumped = configurationAsText(Options);
  (void)parseConfiguration(llvm::MemoryBufferRef(Dumped, "dump"));
  Options.Checks = "-*,torch-*";
  (void)getCheckOptions(Options, /*AllowEnablingAnalyzerAlphaCheckers=*/false);
}

// Asks a compilation database everything the tool asks it.
void queryDatabase(const tooling::CompilationDatabase &Database) {
  for (const std::string &File : Database.getAllFiles())
    (void)Database.getCompileCommands(File);
  (void)Database.getAllCompileCommands();
  (void)Database.getCompileCommands("/src/not-in-the-database.cpp");
}

// compile_commands.json, wrapped the way LibTooling wraps it when it loads
// one from a directory (response files come from an empty in-memory file
// system, so the fuzzer never reads the machine's files).
void parseCompileCommands(llvm::StringRef Bytes) {
  for (auto Syntax : {tooling::JSONCommandLineSyntax::AutoDetect,
                      tooling::JSONCommandLineSyntax::Gnu,
                      tooling::JSONCommandLineSyntax::Windows}) {
    std::string Error;
    std::unique_ptr<tooling::CompilationDatabase> Database =
        tooling::JSONCompilationDatabase::loadFromBuffer(Bytes, Error, Syntax);
    if (!Database)
      continue;
    Database = tooling::inferTargetAndDriverMode(
        tooling::inferMissingCompileCommands(tooling::expandResponseFiles(
            std::move(Database),
            llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>())));
    queryDatabase(*Database);
  }
}

// compile_flags.txt: one compiler argument a line.
void parseCompileFlags(llvm::StringRef Bytes) {
  std::string Error;
  if (auto Database =
          tooling::FixedCompilationDatabase::loadFromBuffer("/src", Bytes, Error))
    queryDatabase(*Database);
}

// --vfsoverlay: a YAML description of a virtual file system.
void parseVfsOverlay(llvm::StringRef Bytes) {
  auto Overlay = llvm::vfs::getVFSFromYAML(
      llvm::MemoryBuffer::getMemBufferCopy(Bytes, "overlay.yaml"),
      [](const llvm::SMDiagnostic &, void *) {}, "overlay.yaml", nullptr,
      llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>());
  if (Overlay)
    (void)Overlay->status("/src/a.cpp");
}

// torch-tidy's own files, read back: a result-cache entry or a preamble
// manifest (a dependency record, and for a result the unit's findings), and
// a worker's result file.
void parseCacheEntry(llvm::StringRef Bytes) {
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Bytes);
  if (!V) {
    llvm::consumeError(V.takeError());
    return;
  }
  torch_tidy::TUResult R;
  std::string Error;
  (void)torch_tidy::fromJSON(*V, R, Error);
  const llvm::json::Object *O = V->getAsObject();
  if (!O)
    return;
  std::vector<std::string> Absent;
  (void)torch_tidy::recordedFiles(*O, Absent);
  (void)torch_tidy::dependenciesUnchanged(*O);
  if (const llvm::json::Value *Result = O->get("result")) {
    torch_tidy::TUResult Cached;
    (void)torch_tidy::fromJSON(*Result, Cached, Error);
  }
}

// --baseline: the accepted findings' fingerprints.
void parseBaseline(llvm::StringRef Bytes) {
  torch_tidy::Baseline B;
  std::string Error;
  if (torch_tidy::parseBaseline(Bytes, B, Error)) {
    std::vector<torch_tidy::Finding> None;
    (void)torch_tidy::applyBaseline(None, B);
  }
}

// Exported fixes (`torch-tidy apply-fixes`, `merge --format=fixes`).
void parseExportedFixes(llvm::StringRef Bytes) {
  tooling::TranslationUnitDiagnostics Diagnostics;
  llvm::yaml::Input In(Bytes);
  In >> Diagnostics;
  if (In.error())
    return;
  // As apply-fixes gathers them: every replacement, file by file.
  std::vector<tooling::Replacement> Replacements;
  for (const tooling::Diagnostic &D : Diagnostics.Diagnostics)
    for (const std::string &File : torch_tidy::sortedFixFiles(D.Message.Fix))
      for (const tooling::Replacement &R : D.Message.Fix.lookup(File))
        Replacements.push_back(R);
}

// A runtime probe's JSON-lines trace (`torch-tidy verify`), from a file.
void parseVerifyTrace(llvm::StringRef Bytes) {
  llvm::SmallString<128> Path;
  int FD = -1;
  if (llvm::sys::fs::createTemporaryFile("torch-tidy-fuzz-trace", "jsonl", FD,
                                         Path))
    return;
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Bytes;
  }
  for (const char *Probe : {"loop", "p", ""}) {
    auto Samples = torch_tidy::verify::readTrace(std::string(Path), Probe);
    if (!Samples) {
      llvm::consumeError(Samples.takeError());
      continue;
    }
    std::vector<double> Nodes;
    for (const torch_tidy::verify::ProbeSample &S : *Samples)
      Nodes.push_back(S.Nodes);
    (void)torch_tidy::verify::theilSenSlope(Nodes);
    (void)torch_tidy::verify::median(Nodes);
  }
  llvm::sys::fs::remove(Path);
}

// The FunctionSummaries option and --export-summaries: parsed, merged into
// what other units' summaries say, and written back.
void parseFunctionSummaries(llvm::StringRef Bytes) {
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Bytes);
  if (!V) {
    llvm::consumeError(V.takeError());
    return;
  }
  torch_tidy::analysis::FunctionSummaries Read, Merged;
  std::string Error;
  if (!torch_tidy::analysis::FunctionSummaries::fromJSON(*V, Read, Error))
    return;
  Merged.merge(Read);
  Merged.merge(Read);
  std::string Written;
  llvm::raw_string_ostream(Written) << Merged.toJSON();
  llvm::Expected<llvm::json::Value> Again = llvm::json::parse(Written);
  if (!Again) {
    llvm::consumeError(Again.takeError());
    return;
  }
  torch_tidy::analysis::FunctionSummaries Reread;
  (void)torch_tidy::analysis::FunctionSummaries::fromJSON(*Again, Reread, Error);
}

const torch_tidy::fuzz::FileFormat Formats[] = {
    {".clang-tidy / --config", parseClangTidyConfig},
    {"compile_commands.json", parseCompileCommands},
    {"compile_flags.txt", parseCompileFlags},
    {"--vfsoverlay", parseVfsOverlay},
    {"result cache entry, preamble manifest, worker result", parseCacheEntry},
    {"--baseline", parseBaseline},
    {"exported fixes (apply-fixes, merge)", parseExportedFixes},
    {"verify probe trace", parseVerifyTrace},
    {"function summaries (FunctionSummaries, --export-summaries)",
     parseFunctionSummaries},
    // Register further formats here, one line each:
    //   {"<what the file is>", <function taking llvm::StringRef>},
};

} // namespace

llvm::ArrayRef<torch_tidy::fuzz::FileFormat> torch_tidy::fuzz::fileFormats() {
  return Formats;
}
