//===--- Engine.cpp - one translation unit through the checks -------------===//

#include "driver/engine/Engine.h"

#include "base/CacheFolder.h"
#include "base/Hashing.h"
#include "checks/CheckTable.h"
#include "checks/analysis/ProjectSummaries.h"
#include "checks/analysis/Summariser.h"
#include "driver/engine/AbsenceRecorder.h"
#include "driver/engine/PreambleCache.h"
#include "driver/engine/PreambleLocations.h"
#include "driver/engine/ResultCache.h"

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Basic/DiagnosticLex.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

using namespace clang;
using namespace clang::tidy;

namespace torch_tidy {

void recordFilesEntered(const SourceManager &SM, bool WithMainFile,
                        std::map<std::string, std::string> &Files,
                        std::map<std::string, std::string> &UserFiles) {
  FileManager &FM = SM.getFileManager();
  for (unsigned I = 0, N = SM.local_sloc_entry_size(); I < N; ++I) {
    const SrcMgr::SLocEntry &E = SM.getLocalSLocEntry(I);
    if (!E.isFile())
      continue;
    const SrcMgr::ContentCache &C = E.getFile().getContentCache();
    std::optional<llvm::MemoryBufferRef> Buffer = C.getBufferIfLoaded();
    if (!C.OrigEntry || !Buffer ||
        (!WithMainFile && C.OrigEntry == SM.getFileEntryRefForID(SM.getMainFileID())))
      continue;
    std::string Hash = contentHash(Buffer->getBuffer());
    llvm::SmallString<256> Path(C.OrigEntry->getName());
    // As the compiler opened it: ".." is not removed, since a symbolic link
    // in front of it would make that another file.
    FM.makeAbsolutePath(Path);
    Files[std::string(Path)] = Hash;
    if (!SrcMgr::isSystem(E.getFile().getFileCharacteristic()))
      UserFiles[C.OrigEntry->getName().str()] = Hash;
  }
}

namespace {

/// What H knows when it summarises a unit: the summaries the checks read
/// (the global FunctionSummaries option, else the project's), so that a
/// second export, or the next round of a project run, refines what calls
/// into other units pass.
analysis::HistoryOptions summarisingOptions(const ClangTidyOptions &Options,
                                            llvm::StringRef MainFile) {
  analysis::HistoryOptions H;
  auto It = Options.CheckOptions.find("FunctionSummaries");
  if (It != Options.CheckOptions.end() && !It->getValue().Value.empty()) {
    std::string Error; // the checks say it
    H.Summaries = analysis::loadSummaries(It->getValue().Value, Error);
  } else {
    H.Summaries = analysis::defaultSummaries(MainFile);
  }
  return H;
}

/// The checks' consumers, plus the speed-ups: skips the bodies of functions
/// declared in system headers, and limits the AST matchers to the
/// declarations of the user's own files.
class ScopedConsumer : public MultiplexConsumer {
public:
  ScopedConsumer(std::unique_ptr<ASTConsumer> Inner, CompilerInstance &CI,
                 const DriverOptions &Opts, TUResult &Result,
                 analysis::HistoryOptions Summarising)
      : MultiplexConsumer(consumers(std::move(Inner))), CI(CI), Opts(Opts),
        Result(Result), Summarising(std::move(Summarising)) {}

  static std::vector<std::unique_ptr<ASTConsumer>>
  consumers(std::unique_ptr<ASTConsumer> Inner) {
    std::vector<std::unique_ptr<ASTConsumer>> V;
    V.push_back(std::move(Inner));
    return V;
  }

  bool shouldSkipFunctionBody(Decl *D) override {
    const SourceManager &SM = CI.getSourceManager();
    return SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation()));
  }

  void HandleTranslationUnit(ASTContext &Ctx) override {
    const SourceManager &SM = Ctx.getSourceManager();
    if (Opts.TraversalScope) {
      std::vector<Decl *> Scope;
      for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
        if (!SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
          Scope.push_back(D);
      Ctx.setTraversalScope(Scope);
    }
    MultiplexConsumer::HandleTranslationUnit(Ctx);
    if (Opts.CollectSummaries) {
      std::string Text;
      llvm::raw_string_ostream OS(Text);
      OS << analysis::summariseUnit(Ctx, Summarising).toJSON();
      Result.Summaries = std::move(Text);
    }
    // A precompiled preamble's files were recorded when it was built.
    recordFilesEntered(SM, /*WithMainFile=*/true, Result.Dependencies,
                       Result.ContentHashes);
  }

private:
  CompilerInstance &CI;
  const DriverOptions &Opts;
  TUResult &Result;
  analysis::HistoryOptions Summarising;
};

class TidyAction : public ASTFrontendAction {
public:
  TidyAction(ClangTidyASTConsumerFactory &Factory, const DriverOptions &Opts,
             TUResult &Result, analysis::HistoryOptions Summarising)
      : Factory(Factory), Opts(Opts), Result(Result),
        Summarising(std::move(Summarising)) {}

  bool BeginSourceFileAction(CompilerInstance &CI) override {
    // A header that is not on this machine (OpenCV, generated protobuf
    // code) leaves the rest of the unit to analyse: the code that does not
    // depend on it, and Clang's recovery of the code that does.
    if (Opts.ErrorRecovery)
      CI.getDiagnostics().setSeverity(diag::err_pp_file_not_found,
                                      diag::Severity::Error, SourceLocation());
    return ASTFrontendAction::BeginSourceFileAction(CI);
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef File) override {
    if (Opts.SkipSystemBodies)
      CI.getFrontendOpts().SkipFunctionBodies = true;
    return std::make_unique<ScopedConsumer>(Factory.createASTConsumer(CI, File),
                                            CI, Opts, Result, Summarising);
  }

private:
  ClangTidyASTConsumerFactory &Factory;
  const DriverOptions &Opts;
  TUResult &Result;
  analysis::HistoryOptions Summarising;
};

void traceCache(llvm::StringRef What, llvm::StringRef File);

class TidyActionFactory : public tooling::FrontendActionFactory {
public:
  TidyActionFactory(ClangTidyContext &Context, const DriverOptions &Opts,
                    TUResult &Result, PreambleCache *Preambles,
                    llvm::StringRef ToolIdentity, AbsenceRecorder *Absences)
      : Context(Context), Factory(Context), Opts(Opts), Result(Result),
        Preambles(Preambles), ToolIdentity(ToolIdentity), Absences(Absences) {}

  /// The preamble the unit read, if any, and the name of its main file.
  std::optional<Preamble> Used;
  std::string MainName;

  std::unique_ptr<FrontendAction> create() override {
    analysis::HistoryOptions Summarising;
    if (Opts.CollectSummaries)
      Summarising =
          summarisingOptions(Context.getOptionsForFile(Result.MainFile),
                             Result.MainFile);
    return std::make_unique<TidyAction>(Factory, Opts, Result,
                                        std::move(Summarising));
  }

  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                     DiagnosticConsumer *DiagConsumer) override {
    // As clang-tidy: the code sees __clang_analyzer__.
    Invocation->getPreprocessorOpts().SetUpStaticAnalyzer = true;
    if (Opts.ErrorRecovery)
      Invocation->getDiagnosticOpts().ErrorLimit = 0;
    if (Preambles && Absences) {
      std::string What;
      std::optional<Preamble> P = Preambles->get(
          *Invocation, *Files, PCHContainerOps, ToolIdentity,
          Opts.SkipSystemBodies, Opts.BuildPreambles, *Absences, What);
      traceCache("preamble " + What, Result.MainFile);
      if (P) {
        PreambleCache::use(*P, *Invocation);
        // What the preamble read is read by this unit as well.
        Result.Dependencies.insert(P->Files.begin(), P->Files.end());
        Result.ContentHashes.insert(P->UserFiles.begin(), P->UserFiles.end());
        MainName = Invocation->getFrontendOpts().Inputs[0].getFile().str();
        Used = std::move(P);
      }
    }
    return FrontendActionFactory::runInvocation(Invocation, Files,
                                                PCHContainerOps, DiagConsumer);
  }

private:
  ClangTidyContext &Context;
  ClangTidyASTConsumerFactory Factory;
  const DriverOptions &Opts;
  TUResult &Result;
  PreambleCache *Preambles;
  std::string ToolIdentity;
  AbsenceRecorder *Absences;
};

/// A precompiled preamble leaves out what a preamble does while it is
/// parsed: the preprocessor callbacks of checks that watch #include lines,
/// and compiler warnings that are only decided at the end of the unit (an
/// unused macro). It is used only when every enabled check is a torch-*
/// check (none registers preprocessor callbacks) and no compiler warning is
/// reported; compiler errors in the preamble make it unusable.
bool preambleKeepsResults(const ClangTidyOptions &Options,
                          ClangTidyContext &Context) {
  for (const std::string &Name :
       getCheckNames(Options, /*AllowEnablingAnalyzerAlphaCheckers=*/false))
    if (!findCheck(Name))
      return false;
  if (Context.isCheckEnabled("clang-diagnostic-warning"))
    return false;
  for (const std::string &Flag : DiagnosticIDs::getDiagnosticFlags()) {
    llvm::StringRef Name(Flag);
    if (Name.consume_front("-W") && !Name.starts_with("no-") &&
        Context.isCheckEnabled(("clang-diagnostic-" + Name).str()))
      return false;
  }
  return true;
}

std::string cacheSubdirectory(const DriverOptions &Opts, llvm::StringRef Name) {
  llvm::SmallString<256> D(cacheFolder(Opts.CacheDir));
  llvm::sys::path::append(D, Name);
  return std::string(D);
}

// TORCH_TIDY_CACHE_TRACE=1 says on stderr whether each unit's result came
// from the cache, and what became of its preamble (for the cache's tests and
// for users who wonder).
void traceCache(llvm::StringRef What, llvm::StringRef File) {
  static const bool On = llvm::sys::Process::GetEnv("TORCH_TIDY_CACHE_TRACE")
                             .value_or("") == "1";
  if (On)
    llvm::errs() << "torch-tidy: cache " << What << ": " << File << "\n";
}

/// In a unit with compiler errors, each torch finding says that it comes
/// from the parts of the file that were understood.
void noteRecoveredFindings(std::vector<ClangTidyError> &Errors) {
  const ClangTidyError *First = nullptr;
  unsigned Count = 0;
  for (const ClangTidyError &E : Errors)
    if (E.DiagnosticName == "clang-diagnostic-error") {
      First = First ? First : &E;
      ++Count;
    }
  if (!First)
    return;
  // With no error limit, a unit that misses a header it uses everywhere
  // would print an error per use: keep as many as clang would have shown.
  constexpr unsigned Shown = 20;
  if (Count > Shown) {
    unsigned Seen = 0;
    ClangTidyError *Last = nullptr;
    llvm::erase_if(Errors, [&](ClangTidyError &E) {
      if (E.DiagnosticName != "clang-diagnostic-error")
        return false;
      return ++Seen > Shown;
    });
    for (ClangTidyError &E : Errors)
      if (E.DiagnosticName == "clang-diagnostic-error")
        Last = &E;
    First = nullptr;
    for (const ClangTidyError &E : Errors)
      if (E.DiagnosticName == "clang-diagnostic-error") {
        First = &E;
        break;
      }
    tooling::DiagnosticMessage More;
    More.Message = std::to_string(Count - Shown) + " more compiler errors "
                   "are not shown";
    More.FilePath = Last->Message.FilePath;
    More.FileOffset = Last->Message.FileOffset;
    Last->Notes.push_back(More);
  }
  std::string Message =
      "the file has " + std::to_string(Count) + " compiler error" +
      (Count == 1 ? "" : "s") + " (the first: " + First->Message.Message +
      "); this finding comes from the code around them, which was still "
      "analysed";
  for (ClangTidyError &E : Errors)
    if (llvm::StringRef(E.DiagnosticName).starts_with("torch-")) {
      tooling::DiagnosticMessage Note;
      Note.Message = Message;
      Note.FilePath = First->Message.FilePath;
      Note.FileOffset = First->Message.FileOffset;
      E.Notes.push_back(Note);
    }
}

} // namespace

std::unique_ptr<tooling::FrontendActionFactory>
newChecksActionFactory(ClangTidyContext &Context, const DriverOptions &Opts,
                       TUResult &Result) {
  return std::make_unique<TidyActionFactory>(Context, Opts, Result, nullptr, "",
                                             nullptr);
}

namespace {

/// The function summaries that \p Options have the checks read
/// (FunctionSummaries, for one check or all): the result depends on them as
/// on a header.
void recordSummariesRead(const ClangTidyOptions &Options,
                         std::map<std::string, std::string> &Dependencies) {
  for (const auto &Entry : Options.CheckOptions) {
    llvm::StringRef Key = Entry.getKey();
    if (Key != "FunctionSummaries" && !Key.ends_with(".FunctionSummaries"))
      continue;
    if (Entry.getValue().Value.empty())
      continue;
    std::string Path = analysis::summariesPath(Entry.getValue().Value);
    Dependencies[Path] = fileHash(Path);
  }
}


/// The key of \p File's entry in the result cache, or "" when the cache does
/// not apply to it (turned off, no tool identity, not one compile command,
/// an unreadable main file); the main file is read through \p Memo when
/// given.
std::string resultKey(const DriverOptions &Opts, ClangTidyContext &Context,
                      const tooling::CompilationDatabase &Compilations,
                      llvm::StringRef File, llvm::StringRef ToolIdentity,
                      FileStateMemo *Memo) {
  if (!Opts.UseCache || ToolIdentity.empty())
    return "";
  std::vector<tooling::CompileCommand> Commands =
      Compilations.getCompileCommands(File);
  if (Commands.size() != 1)
    return "";
  std::string MainHash = Memo ? Memo->hash(File) : fileHash(File);
  if (MainHash.empty())
    return "";
  std::string Extra = std::string("notes=") + (Opts.FixNotes ? "1" : "0") +
                      " bodies=" + (Opts.SkipSystemBodies ? "1" : "0") +
                      " scope=" + (Opts.TraversalScope ? "1" : "0") +
                      " summaries=" + (Opts.CollectSummaries ? "1" : "0") +
                      " project=" +
                      (Opts.FirstStage                   ? "first"
                       : Opts.ProjectSummaries.empty() ? "0"
                                                         : "1") +
                      " round=" + std::to_string(Opts.SummariesRound);
  return ResultCache::key(ToolIdentity, Commands.front(),
                          configurationAsText(Context.getOptionsForFile(File)),
                          Extra, MainHash);
}

ResultCache resultCache(const DriverOptions &Opts) {
  return ResultCache(cacheSubdirectory(Opts, "results"), 512ull << 20);
}

} // namespace

std::shared_ptr<const analysis::FunctionSummaries>
unitSummaries(const DriverOptions &Opts) {
  std::shared_ptr<const analysis::ProjectSummaries> P;
  if (!Opts.ProjectSummaries.empty()) {
    std::string Error; // the run that named the file said it
    P = analysis::loadProjectSummaries(Opts.ProjectSummaries, Error);
  }
  if (P)
    return P->Summaries;
  if (Opts.FirstStage) {
    static const auto Empty = std::make_shared<analysis::FunctionSummaries>();
    return Empty;
  }
  return nullptr;
}

bool resultHolds(const TUResult &R,
                 const analysis::FunctionSummaries *Summaries) {
  if (!Summaries)
    return R.SummaryAnswers.empty();
  return R.SummaryAnswers ==
         contentHash(Summaries->answersTo(R.SummaryQueries));
}

std::optional<TUResult>
cachedResult(const DriverOptions &Opts, ClangTidyContext &Context,
             const tooling::CompilationDatabase &Compilations,
             llvm::StringRef File, llvm::StringRef ToolIdentity,
             FileStateMemo &Memo, bool &LookedUp) {
  std::string Key =
      resultKey(Opts, Context, Compilations, File, ToolIdentity, &Memo);
  LookedUp = !Key.empty();
  if (!LookedUp)
    return std::nullopt;
  std::optional<TUResult> Hit = resultCache(Opts).lookup(Key, &Memo);
  // Any first analysis will do: the run decides whether it holds.
  if (Hit && !Opts.FirstStage && !resultHolds(*Hit, unitSummaries(Opts).get()))
    Hit.reset();
  if (Hit) {
    traceCache("hit", File);
    Hit->MainFile = File.str();
  }
  return Hit;
}

TUResult runEngine(const DriverOptions &Opts, ClangTidyContext &Context,
                   const tooling::CompilationDatabase &Compilations,
                   llvm::StringRef File, llvm::StringRef ToolIdentity) {
  std::optional<ResultCache> Cache;
  std::string Key =
      resultKey(Opts, Context, Compilations, File, ToolIdentity, nullptr);
  // The summaries the checks read where no FunctionSummaries option names
  // a file: the project's, or none yet (the first stage).
  std::shared_ptr<const analysis::FunctionSummaries> Summaries =
      unitSummaries(Opts);
  if (!Key.empty()) {
    Cache.emplace(resultCache(Opts));
    // A worker whose run looked the unit up already need not read every
    // file the entry depends on again.
    if (!Opts.ResultCacheMissed)
      if (std::optional<TUResult> Hit = Cache->lookup(Key);
          Hit && (Opts.FirstStage || resultHolds(*Hit, Summaries.get()))) {
        traceCache("hit", File);
        Hit->MainFile = File.str();
        return *Hit;
      }
    traceCache("miss", File);
  }

  TUResult Result;
  Result.MainFile = File.str();
  llvm::IntrusiveRefCntPtr<AbsenceRecorder> Absences(
      new AbsenceRecorder(llvm::vfs::getRealFileSystem()));
  tooling::ClangTool Tool(Compilations, {File.str()},
                          std::make_shared<PCHContainerOperations>(), Absences);
  Tool.appendArgumentsAdjuster(
      [&Context](const tooling::CommandLineArguments &Args,
                 llvm::StringRef Filename) {
        ClangTidyOptions O = Context.getOptionsForFile(Filename);
        tooling::CommandLineArguments Adjusted = Args;
        if (O.ExtraArgsBefore) {
          auto I = Adjusted.begin();
          if (I != Adjusted.end() && !llvm::StringRef(*I).starts_with("-"))
            ++I;
          Adjusted.insert(I, O.ExtraArgsBefore->begin(), O.ExtraArgsBefore->end());
        }
        if (O.ExtraArgs)
          Adjusted.insert(Adjusted.end(), O.ExtraArgs->begin(), O.ExtraArgs->end());
        return Adjusted;
      });
  Tool.appendArgumentsAdjuster(tooling::getStripPluginsAdjuster());

  ClangTidyDiagnosticConsumer DiagConsumer(Context, nullptr, true,
                                           Opts.FixNotes);
  DiagnosticsEngine DE(new DiagnosticIDs(), new DiagnosticOptions(), &DiagConsumer,
                       /*ShouldOwnClient=*/false);
  Context.setDiagnosticsEngine(&DE);
  Tool.setDiagnosticConsumer(&DiagConsumer);

  std::optional<PreambleCache> Preambles;
  if (Opts.UseCache && Opts.UsePreamble && !ToolIdentity.empty() &&
      preambleKeepsResults(Context.getOptionsForFile(File), Context))
    Preambles.emplace(cacheSubdirectory(Opts, "preambles"), 4ull << 30);
  TidyActionFactory Factory(Context, Opts, Result,
                            Preambles ? &*Preambles : nullptr, ToolIdentity,
                            Absences.get());
  {
    std::optional<analysis::RecordSummaryQueries> Recording;
    if (Summaries) {
      analysis::setDefaultSummaries(
          [Summaries](llvm::StringRef) { return Summaries; });
      Recording.emplace(Result.SummaryQueries);
    }
    Tool.run(&Factory);
    if (Summaries) {
      Recording.reset();
      analysis::setDefaultSummaries(nullptr);
      Result.SummaryAnswers =
          contentHash(Summaries->answersTo(Result.SummaryQueries));
    }
  }
  Result.Errors = DiagConsumer.take();
  if (Factory.Used)
    mapPreambleLocations(Result.Errors, *Factory.Used, Factory.MainName);
  if (Opts.ErrorRecovery)
    noteRecoveredFindings(Result.Errors);
  Result.Stats = Context.getStats();
  recordSummariesRead(Context.getOptionsForFile(File), Result.Dependencies);
  // A preamble built in this run was looked up through this recorder too.
  Result.AbsentPaths = Absences->paths();
  if (Factory.Used)
    Result.AbsentPaths.insert(Result.AbsentPaths.end(),
                              Factory.Used->Absent.begin(),
                              Factory.Used->Absent.end());
  llvm::sort(Result.AbsentPaths);
  Result.AbsentPaths.erase(llvm::unique(Result.AbsentPaths),
                           Result.AbsentPaths.end());
  // A unit with compiler errors is analysed again next time, so that the
  // user always sees them.
  if (Cache && !Result.hasCompilerErrors())
    Cache->store(Key, Result);
  return Result;
}

} // namespace torch_tidy
