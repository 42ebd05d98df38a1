"""The Ray engine's backend: Ray actors, each holding one warm verifier.

Needs the optional extra ``pip install 'sparql-verifier[distributed]'`` (Ray).  Without
``--ray-address`` a private local Ray instance is started with ``num_cpus = workers`` and
no dashboard, and shut down at the end; with an address (``auto``, ``ray://host:10001``,
``host:6379``) the audit joins that cluster, whose nodes must have ``sparql-verifier``
installed (and the MRS/label files at the configured paths).  The actor processes run the
same :func:`verifier.audit.work.verify_task` as the local engine, so verdicts are the same.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from verifier.audit.engines import Chunk, Died, Done, EngineError, EngineOptions, Event, InitFailed, Ready
from verifier.audit.work import build_verifier, verify_task, worker_name

__all__ = ["RayBackend", "ray_available"]

log = logging.getLogger(__name__)


def ray_available() -> bool:
    """Whether Ray can be imported."""
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


class VerifierActor:
    """A Ray actor: builds the verifier once, then verifies chunks of tasks."""

    def __init__(self, config: Any, factory: str | None) -> None:
        logging.getLogger().setLevel(logging.ERROR)
        self.verifier = build_verifier(config, factory)
        self.name = worker_name()

    def ready(self) -> str:
        return self.name

    def verify_chunk(self, chunk_id: int, tasks: tuple) -> tuple:
        return chunk_id, tuple(verify_task(self.verifier, t, self.name) for t in tasks)


@dataclass
class _Ref:
    slot: int
    generation: int
    kind: str  # "ready" | "chunk"
    chunk_id: int = 0


class RayBackend:
    """``options.workers`` Ray actors (see the module documentation)."""

    name = "ray"

    def __init__(self, config: Any, options: EngineOptions) -> None:
        if not ray_available():
            raise EngineError("the Ray engine needs Ray: pip install 'sparql-verifier[distributed]' "
                              "(or pip install 'ray[default]')")
        self.config = config
        self.options = options
        self._n = max(1, options.workers)
        self._actors: list[Any] = [None] * self._n
        self._gen = [0] * self._n
        self._refs: dict[Any, _Ref] = {}
        self._started_ray = False
        self._cls: Any = None

    def size(self) -> int:
        return self._n

    def start(self) -> None:
        import ray

        if not ray.is_initialized():
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                      "logging_level": logging.WARNING, "configure_logging": False}
            if self.options.ray_address:
                kwargs["address"] = self.options.ray_address
            else:
                kwargs.update(num_cpus=self._n, object_store_memory=80 * 1024 * 1024)
            try:
                ray.init(**kwargs)
            except Exception as e:
                raise EngineError(f"cannot start or join Ray: {e}") from None
            self._started_ray = True
        self._cls = ray.remote(num_cpus=1, max_restarts=0)(VerifierActor)
        for i in range(self._n):
            self._spawn(i)

    def _spawn(self, i: int) -> None:
        self._gen[i] += 1
        actor = self._cls.remote(self.config, self.options.factory)
        self._actors[i] = actor
        self._refs[actor.ready.remote()] = _Ref(i, self._gen[i], "ready")

    def submit(self, slot: int, chunk: Chunk) -> None:
        ref = self._actors[slot].verify_chunk.remote(chunk.id, chunk.tasks)
        self._refs[ref] = _Ref(slot, self._gen[slot], "chunk", chunk.id)

    def poll(self, timeout: float) -> list[Event]:
        import ray
        from ray.exceptions import RayActorError, RayError, RayTaskError

        if not self._refs:
            return []
        done, _ = ray.wait(list(self._refs), num_returns=1, timeout=timeout)
        if done:
            more, _ = ray.wait([r for r in self._refs if r not in done], num_returns=len(self._refs) - len(done),
                               timeout=0)
            done = done + more
        events: list[Event] = []
        dead: set[tuple[int, int]] = set()
        for ref in done:
            info = self._refs.pop(ref)
            if info.generation != self._gen[info.slot] or (info.slot, info.generation) in dead:
                continue
            try:
                value = ray.get(ref)
            except RayTaskError as e:
                if info.kind == "ready":
                    events.append(InitFailed(info.slot, str(e).splitlines()[-1]))
                else:  # verify_task does not raise; treat as a dead actor
                    events.append(Died(info.slot, f"actor task failed: {str(e).splitlines()[-1]}"))
                dead.add((info.slot, info.generation))
                continue
            except (RayActorError, RayError) as e:
                if info.kind == "ready" and "__init__" in str(e):
                    events.append(InitFailed(info.slot, str(e).splitlines()[0]))
                else:
                    events.append(Died(info.slot, f"actor died: {type(e).__name__}"))
                dead.add((info.slot, info.generation))
                continue
            if info.kind == "ready":
                events.append(Ready(info.slot, value))
            else:
                chunk_id, outcomes = value
                events.append(Done(info.slot, chunk_id, outcomes))
        return events

    def kill(self, slot: int) -> None:
        import ray

        if self._actors[slot] is not None:
            ray.kill(self._actors[slot], no_restart=True)

    def restart(self, slot: int) -> None:
        import ray

        old = self._actors[slot]
        for ref, info in list(self._refs.items()):
            if info.slot == slot:
                del self._refs[ref]
        if old is not None:
            try:
                ray.kill(old, no_restart=True)
            except Exception:  # already gone
                pass
        self._spawn(slot)

    def close(self) -> None:
        import ray

        for a in self._actors:
            if a is not None:
                try:
                    ray.kill(a, no_restart=True)
                except Exception:
                    pass
        self._refs.clear()
        if self._started_ray and ray.is_initialized():
            ray.shutdown()
