//===--- GradGuard.cpp - G: is a no-grad guard active here? ---------------===//

#include "checks/analysis/GradGuard.h"

#include "checks/analysis/ExprUtils.h"
#include "checks/analysis/TorchTypes.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace torch_tidy::analysis {

GuardKind guardKindOfType(QualType T) {
  const CXXRecordDecl *RD = recordOf(T);
  if (!RD)
    return GuardKind::None;
  // NoGradGuard derives from AutoGradMode: ask for it first.
  if (derivesFrom(RD, "c10::NoGradGuard"))
    return GuardKind::NoGrad;
  if (derivesFrom(RD, "c10::InferenceMode"))
    return GuardKind::InferenceMode;
  if (derivesFrom(RD, "c10::AutoGradMode"))
    return GuardKind::AutoGradMode;
  return GuardKind::None;
}

static bool isExactly(QualType T, llvm::StringRef Name) {
  const CXXRecordDecl *RD = recordOf(T);
  return RD && RD->getQualifiedNameAsString() == Name;
}

/// The effect of a bool argument that enables (true) or disables (false).
static GuardEffect effectOfEnabledArg(const Expr *Arg, const ASTContext &Ctx,
                                      bool TrueDisables) {
  switch (evaluateOptionalBool(Arg, Ctx)) {
  case OptionalBool::True:
    return TrueDisables ? GuardEffect::DisablesGrad : GuardEffect::EnablesGrad;
  case OptionalBool::False:
    return TrueDisables ? GuardEffect::NoChange : GuardEffect::DisablesGrad;
  default:
    return GuardEffect::Unknown;
  }
}

static std::optional<GuardEffect>
effectOfGuardType(QualType T, const CXXConstructExpr *Construct,
                  const ASTContext &Ctx) {
  const Expr *FirstArg = Construct && Construct->getNumArgs() > 0
                             ? Construct->getArg(0)
                             : nullptr;
  bool ArgWritten = FirstArg && !isa<CXXDefaultArgExpr>(FirstArg);
  switch (guardKindOfType(T)) {
  case GuardKind::None:
    return std::nullopt;
  case GuardKind::NoGrad:
    return GuardEffect::DisablesGrad;
  case GuardKind::InferenceMode:
    // InferenceMode(bool enabled = true); InferenceMode(false) changes nothing.
    if (!ArgWritten || !isExactly(T, "c10::InferenceMode"))
      return GuardEffect::DisablesGrad;
    return effectOfEnabledArg(FirstArg, Ctx, /*TrueDisables=*/true);
  case GuardKind::AutoGradMode:
    if (!ArgWritten || !isExactly(T, "c10::AutoGradMode"))
      return GuardEffect::Unknown;
    return effectOfEnabledArg(FirstArg, Ctx, /*TrueDisables=*/false);
  }
  return std::nullopt;
}

std::optional<GuardEffect>
guardEffectOfConstruction(const CXXConstructExpr *Construct,
                          const ASTContext &Ctx) {
  QualType T = Construct->getType();
  if (auto Effect = effectOfGuardType(T, Construct, Ctx))
    return Effect;
  // A class of the user's that holds a guard as a member, e.g.
  // struct EvalScope { torch::NoGradGuard no_grad; ... };
  const CXXRecordDecl *RD = recordOf(T);
  if (!RD || !RD->hasDefinition() || RD->isInStdNamespace())
    return std::nullopt;
  for (const FieldDecl *Field : RD->fields())
    if (auto Effect = effectOfGuardType(Field->getType(), nullptr, Ctx))
      return Effect;
  return std::nullopt;
}

std::optional<GuardEffect> gradModeSetCall(const CallExpr *Call,
                                           const ASTContext &Ctx) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
  if (!MD || MD->getName() != "set_enabled" || Call->getNumArgs() != 1 ||
      MD->getParent()->getQualifiedNameAsString() != "c10::GradMode")
    return std::nullopt;
  return effectOfEnabledArg(Call->getArg(0), Ctx, /*TrueDisables=*/false);
}

namespace {
/// Finds a GradMode::set_enabled call anywhere in a statement, outside
/// lambdas.
class SetEnabledFinder : public RecursiveASTVisitor<SetEnabledFinder> {
public:
  explicit SetEnabledFinder(const ASTContext &Ctx) : Ctx(Ctx) {}
  bool Found = false;
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitCallExpr(CallExpr *Call) {
    Found |= gradModeSetCall(Call, Ctx).has_value();
    return !Found;
  }

private:
  const ASTContext &Ctx;
};
} // namespace

static std::optional<GradState> stateFromEffect(GuardEffect Effect) {
  switch (Effect) {
  case GuardEffect::DisablesGrad:
    return GradState::NotRecording;
  case GuardEffect::EnablesGrad:
    return GradState::Recording;
  case GuardEffect::Unknown:
    return GradState::Unknown;
  case GuardEffect::NoChange:
    return std::nullopt;
  }
  return std::nullopt;
}

static const Expr *stripFullExpr(const Expr *E) {
  if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(E))
    E = Cleanups->getSubExpr();
  return E->IgnoreParenImpCasts();
}

/// What statement \p S, run before the statement in question in the same
/// block, leaves the grad mode as; std::nullopt when it leaves it alone.
static std::optional<GradState> stateAfter(const Stmt *S,
                                           const ASTContext &Ctx) {
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : llvm::reverse(DS->decls())) {
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!VD || !VD->hasLocalStorage() || VD->getType()->isReferenceType() ||
          !VD->getInit())
        continue;
      const auto *Construct =
          dyn_cast<CXXConstructExpr>(stripFullExpr(VD->getInit()));
      if (!Construct)
        continue;
      if (auto Effect = guardEffectOfConstruction(Construct, Ctx))
        if (auto State = stateFromEffect(*Effect))
          return State;
    }
    return std::nullopt;
  }
  if (const auto *E = dyn_cast<Expr>(S)) {
    if (const auto *Call = dyn_cast<CallExpr>(stripFullExpr(E)))
      if (auto Effect = gradModeSetCall(Call, Ctx))
        return stateFromEffect(*Effect);
  }
  // A set_enabled call nested in a branch or a loop: the mode depends on
  // the path taken.
  SetEnabledFinder Finder(Ctx);
  Finder.TraverseStmt(const_cast<Stmt *>(S));
  if (Finder.Found)
    return GradState::Unknown;
  return std::nullopt;
}

/// How a call or construction, handed a callable, runs it.
enum class Starts { NoThread, Thread, ThreadByName };

/// Whether the call or construction \p Callee / \p Class, handed a callable,
/// runs it on another thread: known for the standard library's threads, a
/// guess from names for a thread pool's method.
static Starts startsThread(const FunctionDecl *Callee, const CXXRecordDecl *Class,
                           const NameGuesses &Names) {
  if (Class) {
    std::string Name = Class->getQualifiedNameAsString();
    if (Name == "std::thread" || Name == "std::jthread" ||
        Name == "std::packaged_task")
      return Starts::Thread;
  }
  if (!Callee)
    return Starts::NoThread;
  std::string Qualified = Callee->getQualifiedNameAsString();
  if (Qualified == "std::async")
    return Starts::Thread;
  // threads.emplace_back(f): a std::thread built in place.
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Callee))
    if (const auto *Spec =
            dyn_cast<ClassTemplateSpecializationDecl>(MD->getParent());
        Spec && Spec->isInStdNamespace() && MD->getIdentifier() &&
        llvm::is_contained({"emplace_back", "emplace", "emplace_front",
                            "push_back"},
                           MD->getName()))
      for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray())
        if (Arg.getKind() == TemplateArgument::Type &&
            startsThread(nullptr, recordOf(Arg.getAsType()), Names) ==
                Starts::Thread)
          return Starts::Thread;
  // at::launch carries the thread-local state, grad mode included, over to
  // the thread it runs on: a guard around it does apply.
  if (Qualified == "at::launch")
    return Starts::NoThread;
  if (!Callee->getIdentifier() || !Names.namesPoolMethod(Callee->getName()))
    return Starts::NoThread;
  // A thread pool's method, or a function of a namespace about threads
  // (boost::asio::post(pool, f), at::internal::launch_no_thread_state).
  for (const DeclContext *DC = Callee->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *Named = dyn_cast<NamedDecl>(DC))
      if (Named->getIdentifier() && (Names.namesThreadPool(Named->getName()) ||
                                     Named->getName() == "asio"))
        return Starts::ThreadByName;
  return Starts::NoThread;
}

const CallExpr *threadHandOff(const LambdaExpr *Lambda, ASTContext &Ctx,
                              const CXXConstructExpr **Construct,
                              const NameGuesses &Names, bool *ByName) {
  // A std::thread built around the lambda, or a call that starts one.
  ClosureHandOff HandOff =
      closureHandOff(Lambda, Ctx, [&](const CXXConstructExpr *Built) {
        return startsThread(nullptr, recordOf(Built->getType()), Names) ==
               Starts::Thread;
      });
  if (HandOff.Construct) {
    if (Construct)
      *Construct = HandOff.Construct;
    return nullptr;
  }
  if (!HandOff.Call)
    return nullptr;
  Starts How = startsThread(HandOff.Call->getDirectCallee(), nullptr, Names);
  if (ByName)
    *ByName = How == Starts::ThreadByName;
  return How == Starts::NoThread ? nullptr : HandOff.Call;
}

bool runsOnAnotherThread(const LambdaExpr *Lambda, ASTContext &Ctx,
                         const NameGuesses &Names) {
  const CXXConstructExpr *Construct = nullptr;
  return threadHandOff(Lambda, Ctx, &Construct, Names) || Construct;
}

static GradState gradStateAtImpl(const Stmt *S, ASTContext &Ctx,
                                 const CallSites *Callers,
                                 const NameGuesses &Names, unsigned Depth);

/// The grad state on entry to \p FD: that of its callers when every one of
/// them is known and agrees.
static GradState entryState(const FunctionDecl *FD, ASTContext &Ctx,
                            const CallSites *Callers, const NameGuesses &Names,
                            unsigned Depth) {
  if (!Callers || Depth > 4)
    return GradState::Recording;
  auto Sites = Callers->of(FD);
  if (!Sites || Sites->empty())
    return GradState::Recording;
  bool AllGuarded = true, AnyRecording = false;
  for (const CallExpr *Site : *Sites) {
    GradState State = gradStateAtImpl(Site, Ctx, Callers, Names, Depth + 1);
    AllGuarded &= State == GradState::NotRecording;
    AnyRecording |= State == GradState::Recording;
  }
  if (AllGuarded)
    return GradState::NotRecording;
  return AnyRecording ? GradState::Recording : GradState::Unknown;
}

GradState gradStateAt(const Stmt *S, ASTContext &Ctx, const CallSites *Callers,
                      const NameGuesses &Names) {
  return gradStateAtImpl(S, Ctx, Callers, Names, 0);
}

static GradState gradStateAtImpl(const Stmt *S, ASTContext &Ctx,
                                 const CallSites *Callers,
                                 const NameGuesses &Names, unsigned Depth) {
  DynTypedNode Node = DynTypedNode::create(*S);
  while (true) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return GradState::Recording;
    const DynTypedNode &Parent = Parents[0];
    if (const auto *Block = Parent.get<CompoundStmt>()) {
      const Stmt *Child = Node.get<Stmt>();
      const Stmt *const *ChildIt = llvm::find(Block->body(), Child);
      for (auto It = ChildIt; It != Block->body_begin();) {
        --It;
        if (auto State = stateAfter(*It, Ctx))
          return *State;
      }
    } else if (const auto *Lambda = Parent.get<LambdaExpr>()) {
      if (runsOnAnotherThread(Lambda, Ctx, Names))
        return GradState::Recording;
    } else if (const auto *FD = Parent.get<FunctionDecl>()) {
      // Only a lambda's body continues into the scope that defines it.
      const auto *MD = dyn_cast<CXXMethodDecl>(FD);
      if (!MD || !MD->getParent()->isLambda())
        return entryState(FD, Ctx, Callers, Names, Depth);
    }
    Node = Parent;
  }
}

} // namespace torch_tidy::analysis
