//===--- GradGuard.cpp - G: is a no-grad guard active here? ---------------===//

#include "checks/analysis/GradGuard.h"

#include "checks/analysis/ExprUtils.h"
#include "checks/analysis/LoopScope.h"
#include "checks/analysis/SummaryData.h"
#include "checks/analysis/TorchTypes.h"
#include "checks/analysis/Walk.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

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

/// \p Arg, or where it names a parameter of the constructor that \p Outer
/// calls, the argument \p Outer passes for it.
static const Expr *boundToOuter(const Expr *Arg,
                                const CXXConstructExpr *Outer) {
  if (!Arg || !Outer)
    return Arg;
  const auto *Ref = dyn_cast<DeclRefExpr>(Arg->IgnoreParenImpCasts());
  const auto *Param = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  const CXXConstructorDecl *Ctor = Outer->getConstructor();
  if (!Param || !Ctor)
    return Arg;
  const auto *Owner = dyn_cast<CXXConstructorDecl>(Param->getDeclContext());
  unsigned Index = Param->getFunctionScopeIndex();
  if (!Owner || Owner->getCanonicalDecl() != Ctor->getCanonicalDecl() ||
      Index >= Outer->getNumArgs())
    return Arg;
  return Outer->getArg(Index);
}

/// The effect of building a guard of type \p T with \p Construct (null:
/// default-built); \p Outer, when given, is the construction of the object
/// whose constructor builds the guard as a member.
static std::optional<GuardEffect>
effectOfGuardType(QualType T, const CXXConstructExpr *Construct,
                  const ASTContext &Ctx,
                  const CXXConstructExpr *Outer = nullptr) {
  const Expr *FirstArg = Construct && Construct->getNumArgs() > 0
                             ? boundToOuter(Construct->getArg(0), Outer)
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

/// \p E without what wraps the construction of a full expression: cleanups,
/// the binding of a temporary (`auto g = torch::InferenceMode();`, where
/// the guard has a destructor), functional casts (`= c10::InferenceMode(
/// false)`), other casts and parentheses.
static const Expr *stripFullExpr(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(E))
      E = Cleanups->getSubExpr();
    else if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(E))
      E = Bind->getSubExpr();
    else if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E))
      E = Cast->getSubExpr();
    else
      break;
  }
  return E;
}

/// The construction of a guard member \p Field when \p Ctor builds the
/// object: its written member initializer, else the field's in-class
/// initializer; null when the guard is default-built.
static const CXXConstructExpr *memberGuardConstruction(const FieldDecl *Field,
                                                       const CXXConstructorDecl *Ctor) {
  const Expr *Init = nullptr;
  if (Ctor)
    for (const CXXCtorInitializer *I : Ctor->inits())
      if (I->isWritten() && I->getMember() == Field)
        Init = I->getInit();
  if (!Init && Field->hasInClassInitializer())
    Init = Field->getInClassInitializer();
  if (!Init)
    return nullptr;
  // `mode{false}`, `mode(false)`, `= c10::InferenceMode(false)`.
  return dyn_cast_or_null<CXXConstructExpr>(stripFullExpr(Init));
}

/// The effect of one guard member \p Field on grad mode. With \p Ctor null
/// the object may be built by any constructor of its class: the effect all
/// of them agree on, else Unknown.
static std::optional<GuardEffect>
memberGuardEffect(const FieldDecl *Field, const CXXConstructorDecl *Ctor,
                  const ASTContext &Ctx, const CXXConstructExpr *Outer) {
  QualType T = Field->getType();
  if (T->isReferenceType() || T->isPointerType() ||
      guardKindOfType(T) == GuardKind::None)
    return std::nullopt;
  if (Ctor)
    return effectOfGuardType(T, memberGuardConstruction(Field, Ctor), Ctx,
                             Outer);
  const auto *Class = cast<CXXRecordDecl>(Field->getParent());
  std::optional<GuardEffect> Agreed;
  auto Meet = [&](std::optional<GuardEffect> E) {
    if (!Agreed)
      Agreed = E;
    else if (E != Agreed)
      Agreed = GuardEffect::Unknown;
  };
  bool AnyCtor = false;
  for (const CXXConstructorDecl *C : Class->ctors()) {
    if (C->isCopyOrMoveConstructor() || C->isDeleted())
      continue;
    AnyCtor = true;
    const FunctionDecl *Def = nullptr;
    C->hasBody(Def);
    Meet(effectOfGuardType(
        T,
        memberGuardConstruction(
            Field, Def ? cast<CXXConstructorDecl>(Def) : C),
        Ctx));
  }
  if (!AnyCtor)
    Meet(effectOfGuardType(T, memberGuardConstruction(Field, nullptr), Ctx));
  return Agreed;
}

/// What the guards an object of \p Class holds, as members or through its
/// bases, leave grad mode as while it lives: members are built in order,
/// bases first, so the last guard that changes something decides. With
/// \p Ctor null, whichever constructor builds it; \p Outer is the
/// construction that calls \p Ctor, whose arguments the constructor's
/// parameters stand for.
static std::optional<GuardEffect>
memberGuardsEffect(const CXXRecordDecl *Class, const CXXConstructorDecl *Ctor,
                   const ASTContext &Ctx,
                   const CXXConstructExpr *Outer = nullptr,
                   unsigned Depth = 0) {
  if (!Class || !Class->hasDefinition() || Depth > 3 ||
      Class->isInStdNamespace())
    return std::nullopt;
  std::optional<GuardEffect> Effect;
  auto Take = [&](std::optional<GuardEffect> E) {
    if (E && (*E != GuardEffect::NoChange || !Effect))
      Effect = E;
  };
  for (const CXXBaseSpecifier &Base : Class->bases()) {
    const CXXRecordDecl *BaseClass = recordOf(Base.getType());
    if (auto Own = effectOfGuardType(Base.getType(), nullptr, Ctx))
      Take(Own);
    else
      Take(memberGuardsEffect(BaseClass, nullptr, Ctx, nullptr, Depth + 1));
  }
  for (const FieldDecl *Field : Class->fields())
    Take(memberGuardEffect(Field, Ctor, Ctx, Outer));
  return Effect;
}

std::optional<GuardEffect>
guardEffectOfConstruction(const CXXConstructExpr *Construct,
                          const ASTContext &Ctx) {
  QualType T = Construct->getType();
  if (auto Effect = effectOfGuardType(T, Construct, Ctx))
    return Effect;
  // A class of the user's that holds a guard as a member, e.g.
  // struct EvalScope { torch::NoGradGuard no_grad; ... };
  const CXXConstructorDecl *Ctor = Construct->getConstructor();
  const FunctionDecl *Def = nullptr;
  if (Ctor && Ctor->hasBody(Def))
    Ctor = cast<CXXConstructorDecl>(Def);
  return memberGuardsEffect(recordOf(T), Ctor, Ctx, Construct);
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
class SetEnabledFinder : public StmtWalk {
public:
  explicit SetEnabledFinder(const ASTContext &Ctx) : Ctx(Ctx) {}
  bool Found = false;
  bool enter(Stmt *S) override { return !isa<LambdaExpr>(S); }
  bool visit(Stmt *S) override {
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!Call)
      return true;
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
  Finder.walk(S);
  if (Finder.Found)
    return GradState::Unknown;
  return std::nullopt;
}

namespace {
/// The declarations named \p Name in \p DC, and in the namespaces that its
/// using-directives name; a using-declaration gives what it names.
llvm::SmallVector<const NamedDecl *, 2> lookupName(const DeclContext *DC,
                                                   llvm::StringRef Name,
                                                   ASTContext &Ctx) {
  llvm::SmallVector<const NamedDecl *, 2> Found;
  auto Take = [&](const NamedDecl *D) {
    if (const auto *Shadow = dyn_cast<UsingShadowDecl>(D))
      D = Shadow->getTargetDecl();
    Found.push_back(D);
  };
  // A function's local declarations are not in a lookup table (and its
  // using-directives are only in its statements: see resolveName).
  if (DC->isFunctionOrMethod()) {
    for (const Decl *D : DC->decls())
      if (const auto *Named = dyn_cast<NamedDecl>(D);
          Named && Named->getIdentifier() && Named->getName() == Name &&
          !isa<UsingDecl>(Named))
        Take(Named);
    return Found;
  }
  IdentifierInfo &Id = Ctx.Idents.get(Name);
  for (const NamedDecl *D : DC->lookup(DeclarationName(&Id)))
    Take(D);
  if (Found.empty())
    for (const UsingDirectiveDecl *Using : DC->using_directives())
      for (const NamedDecl *D :
           Using->getNominatedNamespace()->lookup(DeclarationName(&Id)))
        Take(D);
  return Found;
}

/// What the name \p Parts (`torch`, `NoGradGuard`; \p Global for a leading
/// `::`) names from \p From, the scope of the statement: the first part is
/// looked up in \p From and the scopes around it, then in the namespaces of
/// \p Local, the using-directives of the function before the statement;
/// each next part in what the one before names.
const NamedDecl *resolveName(llvm::ArrayRef<llvm::StringRef> Parts, bool Global,
                             const DeclContext *From,
                             llvm::ArrayRef<const NamespaceDecl *> Local,
                             ASTContext &Ctx) {
  const NamedDecl *Current = nullptr;
  const DeclContext *Scope = Global ? Ctx.getTranslationUnitDecl() : From;
  for (; Scope && !Current; Scope = Scope->getParent()) {
    auto Found = lookupName(Scope, Parts.front(), Ctx);
    if (!Found.empty())
      Current = Found.front();
    if (Global)
      break;
  }
  for (const NamespaceDecl *NS : Local) {
    if (Current || Global)
      break;
    auto Found = lookupName(NS, Parts.front(), Ctx);
    if (!Found.empty())
      Current = Found.front();
  }
  for (llvm::StringRef Part : Parts.drop_front()) {
    if (const auto *Alias = dyn_cast_or_null<NamespaceAliasDecl>(Current))
      Current = Alias->getNamespace();
    const auto *Inner = dyn_cast_or_null<DeclContext>(Current);
    if (const auto *Typedef = dyn_cast_or_null<TypedefNameDecl>(Current))
      Inner = recordOf(Typedef->getUnderlyingType());
    if (!Inner)
      return nullptr;
    auto Found = lookupName(Inner, Part, Ctx);
    Current = Found.empty() ? nullptr : Found.front();
  }
  return Current;
}

/// The guard kind of the type that \p D names, if it is one.
GuardKind guardKindNamed(const NamedDecl *D, ASTContext &Ctx) {
  const auto *Type = dyn_cast_or_null<TypeDecl>(D);
  return Type ? guardKindOfType(Ctx.getTypeDeclType(Type)) : GuardKind::None;
}

/// The guard names that declare nothing in the text from \p Begin to \p End,
/// between two statements of a block whose scope is \p Scope.
void scanGap(SourceLocation Begin, SourceLocation End, const DeclContext *Scope,
             llvm::ArrayRef<const NamespaceDecl *> Local, ASTContext &Ctx,
             llvm::SmallVectorImpl<GuardWithoutObject> &Out) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (Begin.isInvalid() || End.isInvalid() || Begin.isMacroID() ||
      End.isMacroID() || SM.getFileID(Begin) != SM.getFileID(End) ||
      !SM.isBeforeInTranslationUnit(Begin, End))
    return;
  auto [File, Offset] = SM.getDecomposedLoc(Begin);
  bool Invalid = false;
  llvm::StringRef Buffer = SM.getBufferData(File, &Invalid);
  if (Invalid)
    return;
  Lexer Raw(SM.getLocForStartOfFile(File), Ctx.getLangOpts(), Buffer.begin(),
            Buffer.begin() + Offset, Buffer.end());
  llvm::SmallVector<Token, 8> Statement;
  llvm::SmallVector<GuardWithoutObject, 1> Found;
  Token Tok;
  while (!Raw.LexFromRawLexer(Tok)) {
    if (!SM.isBeforeInTranslationUnit(Tok.getLocation(), End))
      break;
    // What a preprocessor directive leaves out (`#if 0`) is not code.
    if (Tok.is(tok::hash))
      return;
    if (Tok.isNot(tok::semi)) {
      Statement.push_back(Tok);
      continue;
    }
    // `[::] name (:: name)* ;`
    llvm::SmallVector<llvm::StringRef, 4> Parts;
    bool Global = !Statement.empty() && Statement.front().is(tok::coloncolon);
    bool Shape = !Statement.empty();
    for (size_t I = Global ? 1 : 0; I < Statement.size() && Shape; ++I) {
      bool WantName = (I - (Global ? 1 : 0)) % 2 == 0;
      if (WantName && Statement[I].is(tok::raw_identifier))
        Parts.push_back(Statement[I].getRawIdentifier());
      else if (WantName || Statement[I].isNot(tok::coloncolon))
        Shape = false;
    }
    Shape &= !Parts.empty() && Statement.back().is(tok::raw_identifier);
    if (Shape) {
      GuardKind Kind =
          guardKindNamed(resolveName(Parts, Global, Scope, Local, Ctx), Ctx);
      if (Kind == GuardKind::NoGrad || Kind == GuardKind::InferenceMode)
        Found.push_back({SourceRange(Statement.front().getLocation(),
                                     Statement.back().getLocation()),
                         Kind});
    }
    Statement.clear();
  }
  llvm::append_range(Out, Found);
}
} // namespace

llvm::SmallVector<GuardWithoutObject, 1>
guardsWithoutObject(const CompoundStmt *Block, ASTContext &Ctx) {
  llvm::SmallVector<GuardWithoutObject, 1> Found;
  if (!Block)
    return Found;
  const FunctionDecl *Function = enclosingFunction(Block, Ctx);
  const DeclContext *Scope = Function ? static_cast<const DeclContext *>(Function)
                                      : Ctx.getTranslationUnitDecl();
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  // The function's using-directives (one written after the statement would
  // not resolve it for the compiler, which then reports an error).
  class Directives : public StmtWalk {
  public:
    llvm::SmallVector<const NamespaceDecl *, 2> Found;
    bool visitDecl(Decl *D) override {
      const auto *Using = dyn_cast<UsingDirectiveDecl>(D);
      if (const NamespaceDecl *NS = Using ? Using->getNominatedNamespace() : nullptr)
        Found.push_back(NS);
      return true;
    }
  } Local;
  if (Function && Function->getBody())
    Local.walk(Function->getBody());
  SourceLocation From = Block->getLBracLoc().getLocWithOffset(1);
  for (const Stmt *Child : Block->body()) {
    scanGap(From, Child->getBeginLoc(), Scope, Local.Found, Ctx, Found);
    From = Lexer::getLocForEndOfToken(Child->getEndLoc(), 0, SM, LO);
  }
  scanGap(From, Block->getRBracLoc(), Scope, Local.Found, Ctx, Found);
  return Found;
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

/// What running \p Body leaves grad mode as for its thread, as far as its
/// own statements say: the last `GradMode::set_enabled` among its
/// top-level statements (NoChange when there is none); Unknown when one is
/// nested under a branch, a loop or a block.
static GuardEffect effectLeftBy(const Stmt *Body, const ASTContext &Ctx) {
  const auto *Block = dyn_cast_or_null<CompoundStmt>(Body);
  if (!Block)
    return GuardEffect::Unknown;
  GuardEffect Left = GuardEffect::NoChange;
  for (const Stmt *S : Block->body()) {
    const auto *E = dyn_cast<Expr>(S);
    if (const auto *Call =
            E ? dyn_cast<CallExpr>(stripFullExpr(E)) : nullptr) {
      if (auto Effect = gradModeSetCall(Call, Ctx)) {
        Left = *Effect;
        continue;
      }
    }
    SetEnabledFinder Nested(Ctx);
    Nested.walk(S);
    if (Nested.Found)
      return GuardEffect::Unknown;
  }
  return Left;
}

/// Whether every constructor of \p Class in view turns grad mode off for
/// its thread and leaves it off (`ImageAlign(...) { GradMode::set_enabled(
/// false); net = torch::jit::load(path); }`), and no method of the class
/// turns it back on: its methods run, on the thread that built the object,
/// with grad mode off.
static bool constructorsLeaveGradOff(const CXXRecordDecl *Class,
                                     const ASTContext &Ctx) {
  if (!Class || !Class->hasDefinition() || Class->isInStdNamespace() ||
      Class->isLambda())
    return false;
  Class = Class->getDefinition();
  // The constructors first: most classes have none that switches grad
  // mode, and this is asked of every method at every query.
  bool Any = false;
  for (const CXXConstructorDecl *Ctor : Class->ctors()) {
    if (Ctor->isCopyOrMoveConstructor() || Ctor->isDeleted() ||
        Ctor->isImplicit())
      continue;
    const FunctionDecl *Def = nullptr;
    // A constructor defined out of view says nothing.
    if (!Ctor->hasBody(Def) ||
        effectLeftBy(Def->getBody(), Ctx) != GuardEffect::DisablesGrad)
      return false;
    Any = true;
  }
  if (!Any)
    return false;
  for (const CXXMethodDecl *Method : Class->methods()) {
    const FunctionDecl *Def = nullptr;
    if (isa<CXXConstructorDecl>(Method) || !Method->hasBody(Def))
      continue;
    SetEnabledFinder Switches(Ctx);
    Switches.walk(Def->getBody());
    if (Switches.Found)
      return false;
  }
  return true;
}

/// The grad state that the guards an object of \p Class holds leave for as
/// long as it lives (`class Model { torch::NoGradGuard no_grad; ... };`),
/// as members or through a base class: every method of it runs while the
/// object, and so the guard, is alive. std::nullopt when it holds none that
/// changes anything.
static std::optional<GradState> stateObjectHolds(const CXXRecordDecl *Class,
                                                 const ASTContext &Ctx) {
  if (auto Effect = memberGuardsEffect(Class, nullptr, Ctx))
    return stateFromEffect(*Effect);
  if (constructorsLeaveGradOff(Class, Ctx))
    return GradState::NotRecording;
  return std::nullopt;
}

/// The grad state of code entered from several places, each in one of
/// \p States: off when every one is off, on when one is on.
static GradState joined(llvm::ArrayRef<GradState> States) {
  if (llvm::all_of(States,
                   [](GradState S) { return S == GradState::NotRecording; }))
    return GradState::NotRecording;
  return llvm::is_contained(States, GradState::Recording) ? GradState::Recording
                                                          : GradState::Unknown;
}

/// Whether every declaration of \p FD (and of its class, for a method) is
/// in the unit's own file: no header lets another unit call it.
static bool declaredOnlyInMainFile(const FunctionDecl *FD,
                                   const SourceManager &SM) {
  auto InMain = [&](const Decl *D) {
    return SM.isInMainFile(SM.getExpansionLoc(D->getLocation()));
  };
  if (!llvm::all_of(FD->redecls(), InMain))
    return false;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    return llvm::all_of(MD->getParent()->redecls(), InMain);
  return true;
}

/// The grad state in which a program's file runs code that nothing calls:
/// a function of the file that defines `main`, declared nowhere else and
/// called from nowhere (its calls are commented out, or not yet written),
/// can only ever run from `main`, so it is taken to run as `main`'s own
/// statements do by their end (a guard `main` holds for its whole body
/// covers it). std::nullopt when \p FD is not such a function.
static std::optional<GradState> stateOfUncalled(const FunctionDecl *FD,
                                                ASTContext &Ctx,
                                                const CallSites *Callers,
                                                const NameGuesses &Names,
                                                unsigned Depth) {
  // A function entered without being named (a constructor, an operator, a
  // virtual method) has callers that no call names.
  if (FunctionSummaries::caller(FD).first.empty() ||
      Callers->calledElsewhere(FD, /*OnlyOff=*/false) ||
      !declaredOnlyInMainFile(FD, Ctx.getSourceManager()))
    return std::nullopt;
  const FunctionDecl *Main = Callers->programMain();
  const auto *Body = Main ? dyn_cast<CompoundStmt>(Main->getBody()) : nullptr;
  if (!Body || Body->body_empty())
    return std::nullopt;
  return gradStateAtImpl(Body->body_back(), Ctx, Callers, Names, Depth + 1);
}

/// The grad state on entry to \p FD: that of its callers when every one of
/// them is known and agrees, those of other units (as the summaries say)
/// included; for code that only templates the unit never instantiates
/// call, that of those calls (CallSites::dependentCallsOf); for code of a
/// program's file that nothing calls, that of `main` (stateOfUncalled).
static GradState entryState(const FunctionDecl *FD, ASTContext &Ctx,
                            const CallSites *Callers, const NameGuesses &Names,
                            unsigned Depth) {
  if (!Callers || Depth > 4)
    return GradState::Recording;
  llvm::SmallVector<GradState, 4> States;
  // A template's pattern runs as the unit's instantiations of it do: the
  // calls are theirs (in the pattern, a call on a dependent value is not
  // resolved to it).
  if (llvm::SmallVector<const FunctionDecl *, 2> Instances =
          instantiationsOf(FD);
      !Instances.empty()) {
    for (const FunctionDecl *Instance : Instances)
      States.push_back(entryState(Instance, Ctx, Callers, Names, Depth + 1));
    return joined(States);
  }
  auto Sites = Callers->of(FD);
  if (!Sites)
    return GradState::Recording;
  // With no call in the unit, calls elsewhere with grad mode on answer as
  // none do.
  const CalledSummary *Elsewhere =
      Callers->calledElsewhere(FD, /*OnlyOff=*/Sites->empty());
  if (Sites->empty() && !Elsewhere) {
    // Called only from templates the unit never instantiates, on
    // dependent values: as those calls would run it.
    if (llvm::ArrayRef<const CallExpr *> Dependent =
            Callers->dependentCallsOf(FD);
        !Dependent.empty()) {
      for (const CallExpr *Site : Dependent)
        States.push_back(gradStateAtImpl(Site, Ctx, Callers, Names, Depth + 1));
      return joined(States);
    }
    return stateOfUncalled(FD, Ctx, Callers, Names, Depth)
        .value_or(GradState::Recording);
  }
  if (Elsewhere)
    States.push_back(Elsewhere->GradMode == CalledSummary::Off
                         ? GradState::NotRecording
                     : Elsewhere->GradMode == CalledSummary::On
                         ? GradState::Recording
                         : GradState::Unknown);
  for (const CallExpr *Site : *Sites)
    States.push_back(gradStateAtImpl(Site, Ctx, Callers, Names, Depth + 1));
  return joined(States);
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
      // Called only where a guard is active (defined before the guard,
      // called after it): what its calls find, as for a function.
      if (Callers && Depth <= 4)
        if (auto Sites = Callers->of(Lambda->getCallOperator());
            Sites && !Sites->empty()) {
          GradState State =
              entryState(Lambda->getCallOperator(), Ctx, Callers, Names, Depth);
          if (State == GradState::NotRecording)
            return State;
        }
    } else if (const auto *FD = Parent.get<FunctionDecl>()) {
      // Only a lambda's body continues into the scope that defines it.
      const auto *MD = dyn_cast<CXXMethodDecl>(FD);
      if (MD && !MD->isStatic())
        if (auto Held = stateObjectHolds(MD->getParent(), Ctx))
          return *Held;
      if (!MD || !MD->getParent()->isLambda())
        return entryState(FD, Ctx, Callers, Names, Depth);
    }
    Node = Parent;
  }
}

bool isGuardDeclaredAsFunction(const FunctionDecl *FD) {
  if (!FD || !isa_and_nonnull<FunctionDecl>(FD->getLexicalDeclContext()) ||
      FD->getNumParams() != 0 || FD->isVariadic() || !FD->getFunctionTypeLoc())
    return false;
  QualType Returned = FD->getReturnType();
  const CXXRecordDecl *Class = Returned->getAsCXXRecordDecl();
  return !Returned->isReferenceType() && !Returned->isPointerType() && Class &&
         Class->hasDefinition() && Class->hasDefaultConstructor() &&
         guardKindOfType(Returned) != GuardKind::None;
}

bool holdsGuardsTheUnnamedFixNames(const Stmt *Body, ASTContext &Ctx) {
  struct Finder : StmtWalk {
    ASTContext &Ctx;
    bool Found = false;
    llvm::DenseSet<const Expr *> Held;
    explicit Finder(ASTContext &Ctx) : Ctx(Ctx) {}
    bool visit(Stmt *S) override {
      if (const auto *Block = dyn_cast<CompoundStmt>(S)) {
        Found |= !guardsWithoutObject(Block, Ctx).empty();
      } else if (const auto *Decls = dyn_cast<DeclStmt>(S)) {
        for (const Decl *D : Decls->decls())
          if (const auto *Var = dyn_cast<VarDecl>(D); Var && Var->getInit())
            Held.insert(Var->getInit()->IgnoreImplicit());
      } else if (const auto *E = dyn_cast<CXXConstructExpr>(S);
                 E && !Held.contains(E)) {
        Found |= guardKindOfType(E->getType()) != GuardKind::None;
      }
      return !Found;
    }
  } F(Ctx);
  if (Body)
    F.walk(Body);
  return F.Found;
}

} // namespace torch_tidy::analysis
