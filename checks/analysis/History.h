//===--- History.h - H: does this expression carry autograd history? ------===//
//
// A value carries autograd history when autograd recorded how it was
// computed from something that requires gradients. Two kinds are told apart:
// a leaf that requires gradients (a module parameter, a register_parameter
// member, a tensor made with requires_grad(true)) keeps no graph when it is
// stored, while the result of a module's forward, or of any differentiable op
// with a leaf or graph operand, holds a graph (grad_fn) and the activations
// it saved. History is cut by detach(), item(), data(), non-differentiable
// results (argmax, comparisons, integer and bool conversions, sizes) and by a
// no-grad guard (G) active where the op runs.
//
// Values are followed through local variables along the paths that reach the
// use (Clang's CFG), through std::tie, structured bindings and std::get (the
// elements of a tuple separately, where it is built in view), into functions
// and lambdas defined in the translation unit, and back from a parameter to
// the arguments of its function's call sites in the unit. A function whose
// body is not in the unit (declared only, a std::function, a function
// pointer, a virtual method) returns history when it is handed history (a
// model handed with tensors counts: its parameters require gradients),
// unless what it returns cannot hold it or its name says it is a metric or
// an evaluation; a tensor it is handed by non-const reference (an output
// parameter) gets the same answer; a method of a local object built in
// view from tensors (a distribution class of the user's) is handed them too,
// except its sample(). torch::autograd::grad returns history only with
// create_graph.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_ANALYSIS_HISTORY_H
#define TORCH_TIDY_ANALYSIS_HISTORY_H

#include "checks/analysis/CallSites.h"
#include "checks/analysis/Carries.h"
#include "checks/analysis/FunctionFlow.h"
#include "checks/analysis/GradGuard.h"
#include "checks/analysis/IndexUses.h"
#include "checks/analysis/Overriders.h"
#include "checks/analysis/Names.h"
#include "checks/analysis/TorchTypes.h"
#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>

namespace torch_tidy::analysis {

class FunctionSummaries;
struct PassedSummary;

/// How the H question treats what is not known.
struct HistoryOptions {
  /// A tensor of unknown origin counts as carrying a graph.
  bool AssumeUnknownCarries = false;
  /// A function whose body is not in the unit returns history when handed
  /// history (off: its result is of unknown origin).
  bool OpaqueCallsPassHistory = true;
  /// What functions whose bodies are in other units return (null: none
  /// known): the FunctionSummaries option.
  std::shared_ptr<const FunctionSummaries> Summaries;
  /// The file they were read from, as the option names it.
  std::string SummariesFile;
  /// While summarising a function: what a parameter that no call in view
  /// passes carries (unset: that parameter is of unknown origin).
  std::optional<Carries> UnresolvedParameters;
  /// The guesses from names (Names.h) as the options set them; null: the
  /// defaults.
  std::shared_ptr<const NameGuesses> Names;
  const NameGuesses &names() const {
    return Names ? *Names : defaultNameGuesses();
  }
};





/// Whether H follows the tensor member \p Field from method to method: a
/// member of a class of the user's (not the standard library's or
/// LibTorch's) that holds tensors and is not a module.
bool followsMember(const clang::FieldDecl *Field,
                   const clang::SourceManager &SM);
/// The H question, for one translation unit. Answers are cached.
class HistoryAnalysis {
public:
  HistoryAnalysis(clang::ASTContext &Ctx, const CallSites *Callers,
                  HistoryOptions Options);

  /// H for \p E.
  Carries history(const clang::Expr *E) { return of(E, WholeValue); }

  /// Whether \p E may hold a graph (grad_fn and saved activations), with
  /// unknown origins answered by the option: what storing it keeps.
  bool keepsGraph(const clang::Expr *E);
  /// Whether \p E requires gradients (a graph or a leaf), with unknown
  /// origins answered by the option: an op with it as operand records a
  /// graph.
  bool requiresGrad(const clang::Expr *E);

  /// Whether the tensor that an in-place write into \p Target changes
  /// (\p Target, or the tensor it is an element or view of) is a leaf that
  /// requires gradients, such as a module's parameter. LibTorch refuses such
  /// a write while grad mode is on, so code that makes it runs with grad
  /// mode off (a genetic crossover, a weight copy): it records nothing.
  bool writesIntoGradLeaf(const clang::Expr *Target);

  /// Whether \p Store writes into a local variable (\p Target, or the
  /// container or tensor it is an element or part of) whose value from that
  /// write the function goes on to use as an index (IndexUses): only an
  /// integer or boolean tensor can be one, and it records no history.
  bool storesIndices(const clang::Expr *Target, const clang::Stmt *Store);

  /// A call site in the unit whose argument gave a parameter referred to in
  /// \p E a graph, when \p E's history comes from one.
  const clang::CallExpr *callSiteWitness(const clang::Expr *E);
  /// A parameter referred to in \p E whose history comes from a call in
  /// another unit (FunctionSummaries), and what the summary says of it.
  struct ForeignCall {
    const clang::ParmVarDecl *Param;
    PassedSummary Summary;
  };
  std::optional<ForeignCall> foreignCallWitness(const clang::Expr *E);

  /// Whether \p E would carry no graph but for an assumption about code out
  /// of view: a function whose body is not in view (no summary says what it
  /// returns) returns history when handed some, and a method of the user's
  /// module class defined elsewhere runs a forward pass. \p At, when found,
  /// is the call so judged that \p E is computed from.
  struct Assumption {
    bool Rests = false;
    const clang::CallExpr *At = nullptr;
  };
  Assumption assumptionBehind(const clang::Expr *E);

  /// Where a member of the user's class read in \p E was given the history
  /// that \p E has from it, by another method (or an earlier call of the
  /// same one): the write, and the member written.
  struct MemberWrite {
    const clang::FieldDecl *Field;
    const clang::Stmt *At; ///< null when the write is in another unit
    std::string Elsewhere; ///< then, where (`file:line:column`)
  };
  std::optional<MemberWrite> memberWitness(const clang::Expr *E);
  /// What \p Field may hold between calls of its class's methods: what the
  /// methods whose bodies are in the unit (constructors included) leave in
  /// it when they return, and what the summaries say methods of other units
  /// leave. When none leaves history, what a module's registration says of
  /// it, or unknown.
  Carries memberState(const clang::FieldDecl *Field);
  /// What method \p Def (its body in the unit) leaves in \p Field of its
  /// own object when it returns, over the writes that reach its exit:
  /// none when no path writes it (what it held before is memberState()'s).
  Carries leftInMember(const clang::FunctionDecl *Def,
                       const clang::FieldDecl *Field);
  /// The write found to leave history in \p Field, once memberState() has
  /// said it may hold some; null when it is in another unit.
  const clang::Stmt *memberWrite(const clang::FieldDecl *Field) const {
    return MemberWrites.lookup(Field);
  }
  clang::ASTContext &context() const { return Ctx; }
  const CallSites *callers() const { return Callers; }
  const HistoryOptions &options() const { return Options; }

  /// The flow of the function that contains \p S (cached).
  const FunctionFlow *flowAt(const clang::Stmt *S);
  /// The flow of function \p FD (cached).
  const FunctionFlow *flowOf(const clang::FunctionDecl *FD);

  /// What function \p Def returns (its element \p Element of a tuple or
  /// pair, or -1 for the whole value), over every return statement, each
  /// value read as it was computed (a guard over the statement does not take
  /// away the graph of a value built before it).
  Carries returnedBy(const clang::FunctionDecl *Def, int Element);

  /// Whether the project trains nowhere: its function summaries say that
  /// no unit runs a backward pass or an optimizer step
  /// (FunctionSummaries::trainsNowhere), and nothing in this unit does
  /// either (cached). Evidence that code out of view differentiates
  /// nothing; without summaries there is none.
  bool projectTrainsNowhere();

  /// Where D keeps what it learns of the unit's reads of members, once per
  /// unit: the reads of each member (tensorMemberReads), and whether one of
  /// them may have what the member holds differentiated.
  struct MemberReadsOfUnit {
    std::optional<std::map<const clang::FieldDecl *,
                           std::vector<const clang::MemberExpr *>>>
        Reads;
    llvm::DenseMap<const clang::FieldDecl *, bool> MayBeDifferentiated;
  };
  MemberReadsOfUnit &memberReadsOfUnit() { return MemberReads; }

private:
  /// An element is a path into nested tuples and structs (`r.ppo.loss`:
  /// field 1 of field 0), kept in one int so that it keys the cache: the
  /// outermost index in the low 8 bits, each inner one (plus one) in the
  /// next 8. A path of one index is that index; the whole value is -1.
  static constexpr int WholeValue = -1;
  /// The outermost index of \p Path (Path >= 0).
  static int elementHead(int Path) { return Path & 0xff; }
  /// \p Path without its outermost index: what is asked of that element.
  static int elementRest(int Path) { return Path < 0x100 ? WholeValue : (Path >> 8) - 1; }
  /// Element \p Inner of element \p Outer. Past three levels, or for an
  /// index past 254, the whole of element \p Outer: more than was asked,
  /// never less.
  static int elementPath(int Outer, int Inner) {
    if (Inner == WholeValue || Outer > 0xfe || Inner >= 0xffff)
      return Outer;
    return Outer | ((Inner + 1) << 8);
  }
  /// H of \p E, or of its element \p Element where \p E is a tuple, pair
  /// or struct.
  Carries of(const clang::Expr *E, int Element);
  Carries ofUncached(const clang::Expr *E, int Element);
  Carries ofCall(const clang::CallExpr *Call, int Element);
  Carries ofMemberCall(const clang::CXXMemberCallExpr *Call,
                       llvm::StringRef Name);
  Carries ofTorchFunction(const clang::CallExpr *Call, llvm::StringRef Name);
  Carries ofDecl(const clang::ValueDecl *D, const clang::Expr *Use,
                 int Element);
  Carries ofParameter(const clang::ParmVarDecl *Param, int Element,
                      bool &Resolved);
  Carries ofLocal(const clang::VarDecl *Var, const clang::Expr *Use,
                  int Element);
  Carries ofField(const clang::FieldDecl *Field);
  /// An object of the user's class built by \p Construct, a constructor
  /// whose body is in view: what its members (\p Element: the one of that
  /// index) hold when the constructor returns, as the constructor and the
  /// methods of the class it calls leave them, its parameters taken from
  /// \p Construct's arguments. std::nullopt when it is not followed (no
  /// body in view, a copy, a delegating constructor, a base class holding
  /// tensors, a class of a library).
  std::optional<Carries> ofConstructed(const clang::CXXConstructExpr *Construct,
                                       int Element);
  /// A member of the user's class read through `this` at \p Use: what the
  /// method wrote into it before \p Use, or, where it reads what the method
  /// found, memberState().
  Carries ofMember(const clang::FieldDecl *Field, const clang::Expr *Use,
                   int Element);
  /// \p Result with what the writes of \p Field that reach the exit of
  /// \p Flow's method add to it, up to the first that makes it hold a graph
  /// (then \p Witness, if given, gets that write).
  Carries leftAtExit(const FunctionFlow &Flow, const clang::FieldDecl *Field,
                     Carries Result, const clang::Stmt **Witness);
  /// What the values of one definition of a variable of type tensor
  /// (\p IsTensor) or other give it (its element \p Element).
  Carries ofDefinition(const Definition &Def, bool IsTensor, int Element);
  Carries ofFunctionResult(const clang::FunctionDecl *FD,
                           const clang::CallExpr *Call, int Element);
  Carries ofOpaqueCall(const clang::CallExpr *Call,
                       const clang::FunctionDecl *FD, int Element);
  /// Whether a call into \p Def is followed: not too deep, and not into a
  /// function being followed already.
  bool mayFollowInto(const clang::FunctionDecl *Def) const;
  /// What a forward pass of the user's module whose body is in view
  /// returns, when its body says it holds no graph: every value it returns
  /// (in the mode the module is known to be in at the call) is computed
  /// under a guard, or from nothing with history. std::nullopt otherwise.
  std::optional<Carries> ofForwardInView(const clang::CallExpr *Call,
                                         int Element);
  /// What a summary says a call of \p FD (its body in another unit)
  /// returns, when one is known.
  std::optional<Carries> ofSummary(const clang::CallExpr *Call,
                                   const clang::FunctionDecl *FD, int Element);
  /// What \p FD's summary says this call returns, \p FD a virtual method or
  /// not.
  std::optional<Carries> summarised(const clang::CallExpr *Call,
                                    const clang::FunctionDecl *FD, int Element);
  /// A call of a virtual method that the unit's classes override: what the
  /// bodies it may run return (the method's own unless pure, and each
  /// overrider's), each read in the unit or from its summary; std::nullopt
  /// when one of them is not known.
  std::optional<Carries> ofVirtualCall(const clang::CallExpr *Call,
                                       int Element);
  Carries anyOf(llvm::ArrayRef<const clang::Expr *> Exprs);
  bool guarded(const clang::Expr *E);

  clang::ASTContext &Ctx;
  const CallSites *Callers;
  HistoryOptions Options;
  llvm::DenseMap<std::pair<const clang::Expr *, int>, Carries> Cache;
  llvm::DenseSet<std::pair<const clang::Expr *, int>> InProgress;
  /// How often a cycle was cut short; answers computed across one are not
  /// cached, since they may be partial.
  unsigned CycleHits = 0;
  /// Expressions asked about since the outermost question of()'s callers
  /// asked. Past PartialAfter, partial answers too are kept, until that
  /// question is answered: code whose values feed each other through many
  /// loops (a simulation's positions, velocities and forces) would
  /// otherwise be asked about again on every path, exponentially often.
  unsigned Steps = 0;
  static constexpr unsigned PartialAfter = 20000;
  std::map<std::tuple<const clang::Expr *, int, const clang::CallExpr *, size_t>,
           Carries>
      Partial;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<FunctionFlow>> Flows;
  IndexUses Indices;
  Overriders VirtualOverriders{Ctx};
  llvm::DenseMap<const clang::FieldDecl *, Carries> MemberStates;
  llvm::DenseSet<const clang::FieldDecl *> MembersInProgress;
  /// For a member whose state may hold history: the first write found
  /// that leaves it there.
  llvm::DenseMap<const clang::FieldDecl *, const clang::Stmt *> MemberWrites;
  /// For one whose history comes only from the summaries: where.
  llvm::DenseMap<const clang::FieldDecl *, std::string> ForeignMemberWrites;
  /// The calls being followed into their callees.
  llvm::SmallVector<const clang::CallExpr *, 4> CallStack;
  /// The constructions being followed into their constructors.
  llvm::SmallVector<const clang::CXXConstructExpr *, 2> ConstructStack;
  /// How many parameters are being followed back to their call sites.
  unsigned CallSiteDepth = 0;
  /// For a parameter that has history from a call site: that call site.
  llvm::DenseMap<const clang::ParmVarDecl *, const clang::CallExpr *> Witness;
  /// The calls whose results carry a graph by assumption (see
  /// assumptionBehind), in the order found.
  llvm::SmallVector<const clang::CallExpr *, 4> Assumed;
  llvm::DenseSet<const clang::CallExpr *> AssumedSet;
  /// For a parameter that has history from a call in another unit: where.
  std::map<const clang::ParmVarDecl *, PassedSummary> ForeignWitness;
  std::optional<bool> TrainsNowhere;
  MemberReadsOfUnit MemberReads;
};

/// The per-translation-unit answers a check builds once and asks often:
/// the call sites (for G) and the H cache. Reset at each new TU.
class TranslationUnitFacts {
public:
  /// Forgets the last unit's answers; \p Summaries (the project's, when
  /// known) say in what grad mode other units call this unit's functions.
  void reset(std::shared_ptr<const FunctionSummaries> Summaries = nullptr) {
    History.reset();
    Callers.reset();
    Elsewhere = std::move(Summaries);
  }
  const CallSites &callers(clang::ASTContext &Ctx) {
    if (!Callers)
      Callers = std::make_unique<CallSites>(Ctx, Elsewhere);
    return *Callers;
  }
  HistoryAnalysis &history(clang::ASTContext &Ctx, HistoryOptions Options) {
    if (!History)
      History = std::make_unique<HistoryAnalysis>(Ctx, &callers(Ctx), Options);
    return *History;
  }

private:
  std::shared_ptr<const FunctionSummaries> Elsewhere;
  std::unique_ptr<CallSites> Callers;
  std::unique_ptr<HistoryAnalysis> History;
};

} // namespace torch_tidy::analysis

#endif
