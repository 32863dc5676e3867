//===--- SummaryData.h - What functions of other units do -----*- C++ -*-===//
//
// What a summaries file holds, read and written. A function whose body is
// in another translation unit is opaque to H: its
// result is taken to carry history when it is handed history. A summary,
// made where the body is, says better: per returned value (and per element
// of a returned tuple or pair), what it carries when the function is handed
// history and when it is not. `torch-tidy --export-summaries=FILE` writes
// the summaries of the units it checks; the `FunctionSummaries` option
// names such a file, and H answers from it for a call whose callee's body
// is not in the unit. A summary also says what calls in other units pass a
// function: where its body is, a parameter carries what they pass; and
// whether they may differentiate what it returns (D across units); and
// whether the function runs a backward pass of its own, so that it needs
// grad mode on. Per member of a class of the user's, it says what the
// methods of a unit may leave in it, and whether a read of it in a unit may
// be differentiated (what a member that every reader drops keeps is kept
// for nothing). What a call passes counts only when the function making it
// may run: a program's function that no unit refers to runs nowhere (see
// FunctionSummaries::runs).
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_ANALYSIS_SUMMARYDATA_H
#define TORCH_TIDY_CHECKS_ANALYSIS_SUMMARYDATA_H

#include "checks/analysis/Carries.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>

namespace torch_tidy::analysis {

/// What one returned value carries: with every parameter carrying a graph
/// (the function handed history), and with none carrying anything.
struct ReturnSummary {
  Carries Handed;
  Carries NotHanded;
  bool operator==(const ReturnSummary &O) const {
    return Handed == O.Handed && NotHanded == O.NotHanded;
  }
};

/// By element: -1 for the whole value, 0..N-1 for a tuple's or pair's.
using FunctionSummary = std::map<int, ReturnSummary>;

/// What calls in other units pass for one parameter: a graph at one call
/// at least; where the first such call is (`file:line:column`); and whether
/// at every such call a backward pass in the caller's iteration walks that
/// graph (so that only its nodes outlive the iteration, not its
/// activations).
struct PassedSummary {
  Carries Passed;
  std::string At;
  bool Walked = false;
};

/// What calls in other units do with what a function returns: whether one
/// at least may differentiate it (D), and where the first call is
/// (`file:line:column`; the first one that may, when one does); and whether
/// every one drops it (it stays in variables of the caller's frame, or goes
/// back to callers that drop it in turn: historyDiscarded).
struct UsedSummary {
  bool Differentiated = false;
  std::string At;
  bool Dropped = false;
};

/// The grad mode the calls of a function in other units run it in: Off
/// when every one runs with grad mode off (a no-grad guard around it, or
/// every call of its caller guarded, as G says there), On when one at
/// least records a graph, Unknown otherwise (a branch decides, or its
/// address is taken there, so that not every caller is known); and where
/// (the first call found in that mode).
struct CalledSummary {
  /// In the order merging goes: Off < Unknown < On.
  enum Mode { Off, Unknown, On };
  Mode GradMode = Off;
  std::string At;
};

class FunctionSummaries {
public:
  /// The name a function is known by in every unit: its qualified name,
  /// its parameters' canonical types, and `const` for a const method.
  static std::string keyOf(const clang::FunctionDecl *FD);

  const FunctionSummary *find(const clang::FunctionDecl *FD) const;
  const FunctionSummary *find(llvm::StringRef Key) const;
  /// What calls in other units pass for parameter \p Index of \p FD.
  /// Only the calls made in functions that may run count (see runs()).
  std::optional<PassedSummary> passed(const clang::FunctionDecl *FD,
                                      unsigned Index) const;
  /// What calls in other units do with what \p FD returns; null when no
  /// unit summarised calls it.
  const UsedSummary *used(const clang::FunctionDecl *FD) const;
  /// The grad mode the calls of \p FD in other units run it in; null when
  /// no unit summarised a call of it. \p OnlyOff: the asker treats calls
  /// with grad mode on as it treats no call at all (it has no call of its
  /// own), so that only Off and Unknown answer it differently.
  const CalledSummary *called(const clang::FunctionDecl *FD,
                              bool OnlyOff = false) const;
  /// Whether \p FD, whose body is in another unit, may differentiate what
  /// its parameter \p Index is handed there (a backward pass walks it, a
  /// member that one walks keeps it, or it is handed on to code that may);
  /// none when no unit summarised its parameters.
  std::optional<bool> differentiatesParameter(const clang::FunctionDecl *FD,
                                              unsigned Index) const;
  /// Whether \p FD, whose body is in another unit, differentiates what its
  /// parameter \p Index is handed in the code in view there (a backward
  /// pass of its own walks it, or a function of that unit it hands it
  /// to), counting nothing out of view; none when no unit summarised its
  /// parameters, or the file was written before this was recorded.
  std::optional<bool>
  differentiatesParameterInView(const clang::FunctionDecl *FD,
                                unsigned Index) const;
  /// Where \p FD, whose body is in another unit, runs a backward pass of
  /// its own (in its body or in a function it calls), as
  /// `file:line:column`; null when no unit says it does.
  const std::string *runsBackward(const clang::FunctionDecl *FD) const;
  /// Where a call of \p FD in the unit that defines it may differentiate
  /// what it returns (the first such call, `file:line:column`), as that
  /// unit's summary says; null when none does or no unit says. The calls
  /// in other units are used()'s.
  const std::string *
  differentiatedWhereDefined(const clang::FunctionDecl *FD) const;
  /// What the methods of another unit may leave in member \p Field of
  /// their class (Carries::graph(), and where the first such write is).
  const PassedSummary *member(const clang::FieldDecl *Field) const;
  /// What the code of the units that name member \p Field does with what it
  /// holds: whether one of its reads at least may be differentiated (D),
  /// and where (the first that may, or else the first read); null when no
  /// unit summarised a read of it.
  const UsedSummary *memberRead(const clang::FieldDecl *Field) const;
  bool empty() const {
    return Functions.empty() && Passed.empty() && Members.empty() &&
           MemberReads.empty() &&
           Used.empty() && Called.empty() && Parameters.empty() &&
           Backward.empty() && OwnDifferentiated.empty();
  }
  bool hasPassed() const { return !Passed.empty(); }

  /// Whether the function \p Key, named \p Name, may run: the summaries are
  /// not a program's (no unit defines `main`, so that code out of view may
  /// call anything), or a unit refers to it (calls it, takes its address,
  /// names it in a template), or \p Key is empty (a function that is entered
  /// without being named: `main`, a virtual method, a constructor, an
  /// operator; see FunctionSummaries::caller). The calls made in one that
  /// may not are evidence of nothing the program does.
  bool runs(const std::string &Key, const std::string &Name) const;
  /// How the calls made in \p FD are recorded: the key and the name of the
  /// function that must be referred to for them to count, or an empty key
  /// for one entered without being named. A lambda counts as the function
  /// it is written in.
  static std::pair<std::string, std::string>
  caller(const clang::FunctionDecl *FD);

  /// Adds \p Other's summaries; a function summarised by both (defined in
  /// two units) gets what either says.
  void merge(const FunctionSummaries &Other);
  /// Adds only which functions \p Other's units refer to, whether one
  /// defines `main`, and where they train; with \p Changed (units changed
  /// since they were summarised), one that trained nowhere may train now.
  void mergeReferences(const FunctionSummaries &Other, bool Changed = true);
  void add(std::string Key, FunctionSummary S);
  /// Records that a call at \p At, made in the function \p From (a key,
  /// named \p FromName; see caller()), passes \p C for parameter \p Index
  /// of the function \p Key, walked by a backward pass there or not.
  void addPassed(const std::string &Key, unsigned Index, Carries C,
                 llvm::StringRef At, bool Walked,
                 const std::string &From = "",
                 const std::string &FromName = "");

  /// Records that the unit refers to the function \p Key; \p Dependent:
  /// to every function named \p Key (a call a template leaves unresolved).
  void addReference(const std::string &Key, bool Dependent = false);
  /// Records that a unit defines `main`.
  void addProgram() { Program = true; }

  /// Records where the code of a unit first trains (a backward pass, an
  /// optimizer step: firstTrainingIn), or, with \p At empty, that it
  /// trains nowhere; with std::nullopt, that what a unit does is not known
  /// (it could not be analysed).
  void addTraining(std::optional<llvm::StringRef> At);
  /// Whether the units summarised say they train nowhere: one at least
  /// does, and none trains or is not known. Code out of view in such a
  /// project (a caller in a file not analysed, a function whose body is
  /// elsewhere) is taken to differentiate nothing.
  bool trainsNowhere() const;

  /// Records that a call at \p At of the function \p Key may
  /// differentiate what it returns, or not.
  void addUsed(const std::string &Key, bool Differentiated, llvm::StringRef At,
               bool Dropped = false);

  /// Records that the function \p Key, defined in the unit, may
  /// differentiate what its parameters \p May are handed, and not what
  /// its other parameters are; and that the code in view does for those
  /// of \p InView (none known when null).
  void addParameters(const std::string &Key, const std::set<unsigned> &May,
                     const std::set<unsigned> *InView);

  /// Records that a call at \p At of the function \p Key runs it in grad
  /// mode \p Mode.
  void addCalled(const std::string &Key, CalledSummary::Mode Mode,
                 llvm::StringRef At);

  /// Records that the function \p Key, defined in the unit, runs a
  /// backward pass of its own at \p At.
  void addBackward(const std::string &Key, llvm::StringRef At);

  /// Records that a call at \p At of the function \p Key, in the unit that
  /// defines it, may differentiate what it returns.
  void addDifferentiatedWhereDefined(const std::string &Key,
                                     llvm::StringRef At);

  /// Records that a method defined in the unit may leave history (\p C)
  /// in the member \p Key (its qualified name), written at \p At.
  void addMember(const std::string &Key, Carries C, llvm::StringRef At);

  /// Records that a read of the member \p Key (its qualified name) at
  /// \p At may have what it holds differentiated, or not.
  void addMemberRead(const std::string &Key, bool Differentiated,
                     llvm::StringRef At);

  /// What these summaries say to each of \p Queries (see SummaryQueries),
  /// one line each, "-" where they say nothing: two sets of summaries that
  /// give the same text answer an analysis that asked those questions alike.
  std::string answersTo(const std::set<std::string> &Queries) const;
  /// Whether they say anything to one of \p Queries.
  bool answersAny(const std::set<std::string> &Queries) const;

  llvm::json::Value toJSON() const;
  /// Parses what toJSON wrote; false with \p Error on anything else.
  static bool fromJSON(const llvm::json::Value &V, FunctionSummaries &Out,
                       std::string &Error);

private:
  /// What calls made in one function pass: keyed by the caller's key
  /// (see caller()), with its name.
  struct PassesFrom {
    PassedSummary Summary;
    std::string Name;
  };
  using PassedByCaller = std::map<std::string, PassesFrom>;
  /// What the calls that may run pass for parameter \p Index of \p Key.
  std::optional<PassedSummary> livePassed(const std::string &Key,
                                          unsigned Index) const;
  /// What these summaries say to one query, "-" for nothing.
  std::string answerTo(llvm::StringRef Query) const;

  std::map<std::string, FunctionSummary> Functions;
  std::map<std::string, std::map<unsigned, PassedByCaller>> Passed;
  /// The functions the units refer to, by key, and by name only where a
  /// template leaves the call unresolved; whether one defines `main`.
  std::set<std::string> References, DependentNames;
  bool Program = false;
  /// What the units say of training, in the order merging goes: none
  /// said, every one trains nowhere, one is not known, one trains (at
  /// TrainingAt, the first such place).
  enum class Training { Unsaid, Nowhere, Unknown, Somewhere };
  Training Trains = Training::Unsaid;
  std::string TrainingAt;
  std::map<std::string, PassedSummary> Members;
  /// Per member read in a unit: whether a read may be differentiated
  /// (UsedSummary's Dropped is not used).
  std::map<std::string, UsedSummary> MemberReads;
  std::map<std::string, UsedSummary> Used;
  std::map<std::string, CalledSummary> Called;
  /// Per function summarised for its parameters: those it may
  /// differentiate.
  std::map<std::string, std::set<unsigned>> Parameters;
  /// Per function summarised for its parameters: those the code in view
  /// differentiates (a subset of Parameters').
  std::map<std::string, std::set<unsigned>> ParametersInView;
  /// Per function that runs a backward pass of its own: where.
  std::map<std::string, std::string> Backward;
  /// Per function a call in its own unit differentiates the result of:
  /// where.
  std::map<std::string, std::string> OwnDifferentiated;
};

/// While one lives, every summary a lookup of this thread asks for (found
/// or not) is added to a set, as a query answersTo() understands. An
/// analysis is deterministic, so one whose lookups all get the same answers
/// from other summaries would do exactly the same with them: a result made
/// with no summaries stands for a result made with summaries that answer
/// none of its queries.
class RecordSummaryQueries {
public:
  explicit RecordSummaryQueries(std::set<std::string> &Into);
  ~RecordSummaryQueries();
  RecordSummaryQueries(const RecordSummaryQueries &) = delete;
  RecordSummaryQueries &operator=(const RecordSummaryQueries &) = delete;

private:
  std::set<std::string> *Previous;
};

/// Where a check finds summaries when no FunctionSummaries option names a
/// file: the front end's own source (torch-tidy: the project's summaries;
/// torch-clangd: those the last project run left for the file's build
/// directory), asked with the unit's main file; null: none.
using SummariesSource =
    std::function<std::shared_ptr<const FunctionSummaries>(llvm::StringRef)>;
void setDefaultSummaries(SummariesSource Source);
std::shared_ptr<const FunctionSummaries>
defaultSummaries(llvm::StringRef MainFile);

/// \p Path as the user meant it: a relative path is taken from the directory
/// the tool was started in (not the compile command's, which a unit's
/// analysis runs in).
std::string summariesPath(llvm::StringRef Path);

/// Whether a call of \p FD is answered by summaries: its body is not in the
/// unit, it is not LibTorch's or the standard library's, and it is not a
/// virtual method that an override elsewhere may stand in for.
bool bodyIsElsewhere(const clang::FunctionDecl *FD,
                     const clang::SourceManager &SM);
/// Whether \p FD is the user's (not LibTorch's or the standard library's)
/// and its body is not in the unit (a virtual method too).
bool userBodyNotInUnit(const clang::FunctionDecl *FD,
                       const clang::SourceManager &SM);
/// Whether \p FD is the user's, externally visible, and its body is in the
/// unit from a header (a method defined in its class, an inline function):
/// every unit that includes the header has the body, so that calls of it in
/// other units are seen only through the summaries, which record them as
/// they record calls of a function defined elsewhere.
bool bodyInHeader(const clang::FunctionDecl *FD, const clang::SourceManager &SM);
/// Whether the summaries record the unit's calls of \p FD: its body is not
/// in the unit (userBodyNotInUnit) or is in a header (bodyInHeader).
bool callsSummarised(const clang::FunctionDecl *FD,
                     const clang::SourceManager &SM);

/// The summaries in file \p Path, read once per process (again when the
/// file changes); null with \p Error when it cannot be read or parsed.
std::shared_ptr<const FunctionSummaries>
loadSummaries(llvm::StringRef Path, std::string &Error);

} // namespace torch_tidy::analysis

#endif
