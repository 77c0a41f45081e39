/**
 * Leads and exports are XState actors whose state lives in a document as plain JSON (docs/pipeline.md),
 * so each needs the same three pure steps: start, ask whether an event is accepted,
 * and advance (restore, refuse what the state does not accept, transition, persist). They live
 * here once; each machine file keeps only its machine, its error and its named functions.
 */
import {
  createActor,
  type AnyActorScope,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type ContextFrom,
  type EventFromLogic,
  type InputFrom,
  type SnapshotFrom,
} from 'xstate';

type StateOf<TMachine extends AnyStateMachine> = SnapshotFrom<TMachine>['value'];
type EventOf<TMachine extends AnyStateMachine> = EventFromLogic<TMachine>;

/** What a document stores of an actor: its state value and context. */
export interface PersistedActor<TMachine extends AnyStateMachine> {
  state: StateOf<TMachine>;
  context: ContextFrom<TMachine>;
}

export interface PersistedActorSteps<TMachine extends AnyStateMachine> {
  start(input: InputFrom<TMachine>): PersistedActor<TMachine>;
  can(current: PersistedActor<TMachine>, event: EventOf<TMachine>): boolean;
  /** Throws the machine's illegal-transition error for an event the state does not accept. */
  advance(current: PersistedActor<TMachine>, event: EventOf<TMachine>): PersistedActor<TMachine>;
}

export function persistedActorSteps<TMachine extends AnyStateMachine>(
  machine: TMachine,
  IllegalTransition: new (state: StateOf<TMachine>, event: EventOf<TMachine>['type']) => Error,
): PersistedActorSteps<TMachine> {
  // TypeScript cannot resolve XState's conditional types for a generic machine, so the body works
  // on the untyped machine; the signatures above carry the exact types of each concrete machine.
  const logic: AnyStateMachine = machine;
  const scope = inertScope(logic);
  const restore = (current: PersistedActor<TMachine>): AnyMachineSnapshot =>
    logic.resolveState({ value: current.state, context: current.context });
  const persist = (snapshot: AnyMachineSnapshot): PersistedActor<TMachine> => ({
    state: snapshot.value,
    context: snapshot.context,
  });

  return {
    start: (input) => persist(logic.getInitialSnapshot(scope(), input)),
    can: (current, event) => restore(current).can(event),
    advance: (current, event) => {
      const snapshot = restore(current);
      if (!snapshot.can(event)) throw new IllegalTransition(current.state, event.type);
      return persist(logic.transition(snapshot, event, scope(snapshot)));
    },
  };
}

/**
 * What XState's pure `transition` and `initialTransition` build on every call: an actor scope that
 * executes no action (the new state and context are all a persisted actor keeps). Those functions
 * create a whole actor for it each time, which cost more than the transition itself; the machines
 * here spawn no children, so one scope per machine serves every call.
 */
function inertScope(logic: AnyStateMachine): (snapshot?: AnyMachineSnapshot) => AnyActorScope {
  const self = createActor(logic);
  const scope: AnyActorScope = {
    self,
    defer: () => undefined,
    id: '',
    logger: () => undefined,
    sessionId: '',
    stopChild: () => undefined,
    system: self.system,
    emit: () => undefined,
    actionExecutor: () => undefined,
  };
  return (snapshot) => {
    if (snapshot) (self as unknown as { _snapshot: AnyMachineSnapshot })._snapshot = snapshot;
    return scope;
  };
}
