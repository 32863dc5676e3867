//===--- EvalWithoutGradGuardCheck.h - torch-eval-without-grad-guard ------===//
#ifndef TORCH_TIDY_CHECKS_EVALWITHOUTGRADGUARDCHECK_H
#define TORCH_TIDY_CHECKS_EVALWITHOUTGRADGUARDCHECK_H

#include "checks/analysis/History.h"
#include "clang-tidy/ClangTidyCheck.h"

#include <map>

namespace torch_tidy {

/// Flags a model's forward pass run in evaluation code (after
/// `module->eval()`, or in a function named like an evaluation) with no
/// torch::NoGradGuard or c10::InferenceMode active, when its result is never
/// differentiated; once per function, at the first such call.
class EvalWithoutGradGuardCheck : public clang::tidy::ClangTidyCheck {
public:
  EvalWithoutGradGuardCheck(llvm::StringRef Name,
                            clang::tidy::ClangTidyContext *Context);
  bool isLanguageVersionSupported(const clang::LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;
  void onStartOfTranslationUnit() override;
  void onEndOfTranslationUnit() override;

private:
  /// Why a forward pass runs in evaluation code.
  struct Context {
    const clang::FunctionDecl *Function = nullptr; ///< where that was decided
    const clang::Stmt *EvalCall = nullptr; ///< the eval() that makes it so
    const clang::FunctionDecl *NamedBy = nullptr; ///< evaluation by its name
    const clang::LambdaExpr *Thread = nullptr; ///< runs on another thread
    bool GuardedStarter = false; ///< the thread is started under a guard
    bool ByUse = false; ///< its result is only read as numbers, then dropped
    /// ... by the callers it is returned or written back to.
    bool DroppedByCallers = false;
    /// ... some of them in other files, the first at this place, as their
    /// summaries say.
    std::string DroppedElsewhereAt;
    /// ... or kept in this private member, which only its class reads.
    const clang::FieldDecl *KeptIn = nullptr;
    /// Where the first read of KeptIn is, when the summaries answered for
    /// its reads (a member that is not private to its class).
    std::string KeptReadAt;
    /// For evaluation by use: the function whose callers, all out of view,
    /// are taken to run it again and again.
    const clang::FunctionDecl *RepeatsUnseen = nullptr;
    /// It runs once, on data from outside the function, not on a tensor
    /// made up for a probe.
    bool OnceOnData = false;
    /// ... where the project's summaries know a call of it in another file:
    /// the first (`file:line:column`).
    std::string RepeatsCalledAt;
    /// The thread is started by a thread pool known by its name.
    bool PoolByName = false;
    /// Not differentiated only because code out of view that gets the
    /// result is taken not to differentiate it.
    bool OpaqueTakenNotToDifferentiate = false;
    /// Dropped, or not differentiated, only because the project trains
    /// nowhere (as its function summaries say), so that code and callers
    /// out of view are taken to differentiate nothing.
    bool AssumedUntrained = false;
    /// Run once and only read as numbers, in a function that trains or
    /// runs the model again and again: the training loop (or the statement
    /// that runs the model) that a variable holding its graph outlives.
    const clang::Stmt *HeldThrough = nullptr;
    const clang::VarDecl *Holder = nullptr; ///< that variable
    /// Whether what follows trains, or only runs the model again and again.
    bool HeldThroughTraining = false;
    /// Run once on data from outside, after the last statement of its
    /// function that trains (that statement), with nothing after it that
    /// trains: evaluation of what was trained (a prediction on loaded data
    /// at the end of main).
    const clang::Stmt *TrainedBefore = nullptr;
    /// For evaluation by use in a function that trains: the block around
    /// the forward, which trains nothing.
    const clang::CompoundStmt *Block = nullptr;
    /// For evaluation by use in a function that trains, where the block
    /// around the forward trains too (an action taken in a rollout whose
    /// loop also updates the model): the statement that runs it. A guard
    /// there would cover the training beside it, so there is no fix.
    const clang::Stmt *BesideTraining = nullptr;
  };
  struct Finding {
    const clang::Expr *Forward;
    Context Where;
    clang::ASTContext *Ctx;
    /// The function the forward is in (an instantiation, where the map's
    /// key is its template's pattern).
    const clang::FunctionDecl *Function;
  };
  bool isEvalName(const clang::FunctionDecl *Function, clang::ASTContext &Ctx);
  Context contextOf(const clang::Expr *Forward, clang::ASTContext &Ctx,
                    analysis::HistoryAnalysis &History);
  void report(const clang::FunctionDecl *Function, const Finding &F);
  /// Whether \p Method is a helper of a model that returns what a forward
  /// pass of its own computes, or a method of a class that holds a model
  /// and whose result some call differentiates (see the .cpp); answered
  /// once per method.
  bool isForwardWrapper(const clang::FunctionDecl *Method,
                        clang::ASTContext &Ctx);
  bool resultDifferentiatedByACall(const clang::CXXMethodDecl *MD,
                                   clang::ASTContext &Ctx);
  bool makesGraphElsewhere(const clang::CXXMethodDecl *MD);

  const std::string GuardType;
  /// Why the FunctionSummaries file could not be read (said once).
  std::string HistoryError;
  const analysis::HistoryOptions HistoryOpts;
  /// torch-unnamed-grad-guard runs too: its fix names a temporary guard.
  const bool NamesTemporaryGuards;
  analysis::TranslationUnitFacts Facts;
  /// The first unguarded forward of each function, reported at the end.
  std::map<const clang::FunctionDecl *, Finding> Findings;
  /// isForwardWrapper's answers, for the unit.
  llvm::DenseMap<const clang::FunctionDecl *, bool> Wrappers;
};

} // namespace torch_tidy

#endif
