"""Scope resolution: fully scoped readings of an MRS, in pure Python.

An MRS is read as a dominance problem.  Each label names a *fragment* (the EPs sharing that
label, a conjunction); each handle-valued argument (``RSTR``, ``BODY``, scopal ``ARGn``) and
the ``TOP`` handle is a *hole*.  A scoped reading *plugs* every hole with one fragment so that
the result is a tree and

* ``h qeq l``: the fragment ``l`` fills ``h``, or quantifiers fill ``h`` and ``l`` is reached
  from ``h`` through their ``BODY`` holes only (no other scopal operator in between);
* a handle argument that *is* a label (no qeq) is plugged by that label's fragment;
* every EP that uses a variable lies inside the ``RSTR`` or ``BODY`` of that variable's
  quantifier (variables are bound);
* every fragment fills exactly one hole.

:func:`solve` enumerates readings depth-first with memoisation (a chart of failed and solved
subproblems), quantifiers tried in surface order, so the first reading is the one where
earlier quantifiers take wider scope.  A component of the MRS that shares nothing with a
quantifier's restriction goes to its ``BODY``.  When no reading exists, ``relaxed=True``
allows holes to stay empty (they are read as ``true``); :class:`ScopeError` explains what is
wrong with a malformed MRS.  PyDelphin only *checks* scopes (``delphin.scope``); this module
*resolves* them.
"""

from __future__ import annotations

from dataclasses import dataclass

from parsers.mrs.structure import Mrs, var_type

__all__ = ["ScopeError", "ScopeProblem", "scope_problem", "solve", "Solution"]

#: A scoped reading: ``plug[hole] -> fragment index`` (``-1`` for an empty hole in relaxed
#: mode), holes and fragments indexed as in :class:`ScopeProblem`.
Solution = tuple[int, ...]


class ScopeError(ValueError):
    """The MRS cannot be scoped (malformed constraints, or no reading satisfies them)."""


@dataclass(frozen=True, slots=True)
class ScopeProblem:
    """The dominance problem of one MRS (indices, no names, for speed).

    ``frag_eps[f]`` EP indices of fragment ``f``; ``frag_quant[f]`` its quantifier EP (or -1);
    ``hole_*[h]`` per hole: name, owning fragment (-1 for TOP), owning EP and role, target
    fragment (-1 when unconstrained) and whether the target is fixed (label used directly);
    ``frag_holes[f]`` its holes; ``body_hole[f]`` the ``BODY`` hole of a quantifier fragment.
    """

    labels: tuple[str, ...]
    frag_eps: tuple[tuple[int, ...], ...]
    frag_quant: tuple[int, ...]
    frag_var: tuple[str | None, ...]
    frag_holes: tuple[tuple[int, ...], ...]
    body_hole: tuple[int, ...]
    hole_names: tuple[str, ...]
    hole_owner: tuple[int, ...]
    hole_ep: tuple[int, ...]
    hole_role: tuple[str, ...]
    hole_target: tuple[int, ...]
    hole_fixed: tuple[bool, ...]
    top_hole: int
    # bitmask relations between fragments
    dominated_by: tuple[int, ...]
    dep_binders: tuple[int, ...]
    users: tuple[int, ...]
    adj: tuple[int, ...]
    order: tuple[int, ...]
    n_holes: tuple[int, ...] = ()
    repairs: tuple[str, ...] = ()


def scope_problem(m: Mrs) -> ScopeProblem:
    """Build the dominance problem of ``m``; raises :class:`ScopeError` when malformed.

    Defects of real parser output are repaired rather than rejected, each noted in
    :attr:`ScopeProblem.repairs`:

    * a ``qeq`` to a label no predication carries (the ERG's empty restrictions) gets an
      empty fragment, read as ``true``;
    * a second quantifier over an already bound variable is dropped;
    * a quantifier ``RSTR`` without ``qeq`` is taken to be ``qeq`` the label of the
      predication whose ``ARG0`` is the quantified variable (when no other hole claims it);
    * a hole constrained to its own label is left unconstrained;
    * when there are more fragments than holes, a fragment no hole can take is merged into
      the fragment of the predication that introduces its first argument (an intersective
      reading of a stray modifier such as ``appos``), else into the top's fragment.
    """
    eps = m.eps
    if not eps:
        raise ScopeError("the MRS has no predications")
    top = m.top
    if top is None:
        raise ScopeError("the MRS has no TOP")
    repairs: list[str] = []
    isq = [ep.is_quantifier for ep in eps]
    binder_ep: dict[str, int] = {}
    dropped: set[int] = set()
    for i, ep in enumerate(eps):
        if not isq[i]:
            continue
        args = ep.args
        v = args[0][1] if args[0][0] == "ARG0" else None
        if v is None:
            raise ScopeError(f"quantifier {ep.pred} has no ARG0")
        if args[-1][0] != "BODY" and all(r != "BODY" for r, _ in args):
            raise ScopeError(f"quantifier {ep.pred} lacks RSTR or BODY")
        if v in binder_ep:
            dropped.add(i)
            repairs.append(f"{v} is bound twice; {ep.pred} at {ep.label} dropped")
            continue
        binder_ep[v] = i
    label_index: dict[str, int] = {}
    frag_eps: list[list[int]] = []
    for i, ep in enumerate(eps):
        if i in dropped:
            continue
        f = label_index.get(ep.label)
        if f is None:
            f = label_index[ep.label] = len(frag_eps)
            frag_eps.append([])
        frag_eps[f].append(i)
    qeq: dict[str, str] = {}
    dropped_handles = {v for i in dropped for r, v in eps[i].args if r != "ARG0"}
    for hc in m.hcons:
        if hc.rel not in ("qeq", "lheq", "outscopes") or hc.hi in dropped_handles:
            continue
        if hc.hi in qeq and qeq[hc.hi] != hc.lo:
            raise ScopeError(f"hole {hc.hi} has two qeq constraints")
        qeq[hc.hi] = hc.lo

    # holes: (name, owner fragment, EP, role)
    holes: list[tuple[str, int, int, str]] = [(top, -1, -1, "TOP")]
    seen = {top}
    for f, members in enumerate(frag_eps):
        for i in members:
            q = isq[i]
            for role, val in eps[i].args:
                if q:
                    if role == "ARG0":
                        continue
                    is_hole = role == "RSTR" or role == "BODY" or val[0] == "h"
                else:
                    is_hole = val[0] == "h" and role != "ARG0" and var_type(val) == "h"
                if is_hole:
                    if val in seen:
                        raise ScopeError(f"handle {val} is an argument of two predications")
                    seen.add(val)
                    holes.append((val, f, i, role))
    # a label claimed by the RSTRs of several quantifiers: split it by intrinsic variable
    claimants: dict[str, list[tuple[str, int]]] = {}
    for name, f, i, role in holes:
        lo = qeq.get(name)
        if lo is not None and lo in label_index:
            claimants.setdefault(lo, []).append((name, i if role == "RSTR" else -1))
    for lo, cl in claimants.items():
        if len(cl) < 2 or any(i < 0 for _, i in cl):
            continue
        g = label_index[lo]
        for name, i in cl[1:]:
            v = eps[i].args[0][1]
            part = [j for j in frag_eps[g] if not isq[j] and eps[j].iv == v]
            if not part or len(part) == len(frag_eps[g]):
                continue
            frag_eps[g] = [j for j in frag_eps[g] if j not in part]
            new_label = f"{lo}/{v}"
            label_index[new_label] = len(frag_eps)
            frag_eps.append(part)
            qeq[name] = new_label
            repairs.append(f"{lo} is the restriction of two quantifiers; the predications of "
                           f"{v} were split off")
    missing_rstr = False
    for name, f, i, role in holes:
        lo = qeq.get(name)
        if lo is None:
            if role == "RSTR" and name not in label_index:
                missing_rstr = True
            continue
        # qeq to a label nobody carries: an empty fragment
        if lo not in label_index:
            label_index[lo] = len(frag_eps)
            frag_eps.append([])
            repairs.append(f"{name} qeq {lo}: no predication has label {lo}; read as true")
        # self-constraints
        elif f >= 0 and label_index[lo] == f:
            del qeq[name]
            repairs.append(f"{name} qeq {lo} points at its own predication; dropped")
    # RSTR without qeq
    claimed: set[int] = set()
    if missing_rstr:
        claimed = {label_index[lo] for lo in qeq.values()}
        claimed.update(label_index[name] for name, _, _, _ in holes if name in label_index)
    for name, f, i, role in holes if missing_rstr else ():
        if role != "RSTR" or name in qeq or name in label_index:
            continue
        v = eps[i].args[0][1]
        cands = {label_index[eps[j].label] for j in range(len(eps))
                 if not isq[j] and eps[j].iv == v and eps[j].label in label_index}
        cands -= claimed
        if len(cands) == 1:
            g = cands.pop()
            lab = eps[frag_eps[g][0]].label
            qeq[name] = lab
            claimed.add(g)
            repairs.append(f"RSTR {name} of {eps[i].pred} has no qeq; assumed qeq {lab}")
    nf = len(frag_eps)
    nh = len(holes)
    # orphans: fragments no hole can take, when there are more fragments than holes
    if nf > nh:
        targeted = {label_index[lo] for lo in qeq.values()}
        targeted.update(label_index[name] for name, _, _, _ in holes if name in label_index)
        top_target = label_index.get(qeq.get(top, top))
        intro: dict[str, int] = {}
        for f, members in enumerate(frag_eps):
            for i in members:
                if not isq[i]:
                    iv = eps[i].iv
                    if iv is not None:
                        intro.setdefault(iv, f)
        merged: dict[int, int] = {}
        for f in range(nf):
            if nf - len(merged) <= nh:
                break
            if f in targeted or not frag_eps[f] or any(isq[i] for i in frag_eps[f]):
                continue
            host = None
            for i in frag_eps[f]:
                for role, val in eps[i].args:
                    if role != "ARG0" and intro.get(val, f) != f:
                        host = intro[val]
                        break
                if host is not None:
                    break
            if host is None:
                host = top_target
            if host is not None:
                host = _root(merged, host)
            if host is None or host == f:
                continue
            merged[f] = host
            repairs.append(f"stray predication(s) at {eps[frag_eps[f][0]].label} "
                           f"({', '.join(eps[i].pred for i in frag_eps[f])}) conjoined with "
                           f"{eps[frag_eps[host][0]].label if frag_eps[host] else 'the top'}")
        if merged:
            for f in merged:
                frag_eps[_root(merged, f)].extend(frag_eps[f])
            keep = [f for f in range(nf) if f not in merged]
            renum = {f: k for k, f in enumerate(keep)}
            for lab, f in list(label_index.items()):
                label_index[lab] = renum[_root(merged, f)]
            frag_eps = [sorted(frag_eps[f]) for f in keep]
            holes = [(n, renum[_root(merged, f)] if f >= 0 else -1, i, r)
                     for n, f, i, r in holes]
            nf = len(frag_eps)

    frag_quant = [-1] * nf
    frag_var: list[str | None] = [None] * nf
    for f, members in enumerate(frag_eps):
        for i in members:
            if isq[i]:
                if frag_quant[f] != -1:
                    raise ScopeError(f"two quantifiers share the label {eps[i].label}")
                frag_quant[f] = i
                frag_var[f] = eps[i].args[0][1]
    body_hole = [-1] * nf
    frag_holes: list[list[int]] = [[] for _ in range(nf)]
    hole_target: list[int] = []
    hole_fixed: list[bool] = []
    for h, (name, f, i, role) in enumerate(holes):
        t = qeq.get(name)
        if t is not None:
            hole_target.append(label_index[t])
            hole_fixed.append(False)
        elif name in label_index:
            hole_target.append(label_index[name])
            hole_fixed.append(True)
        else:
            hole_target.append(-1)
            hole_fixed.append(False)
        if f >= 0:
            frag_holes[f].append(h)
            if role == "BODY" and isq[i]:
                body_hole[f] = h

    # relations between fragments
    dominated_by = [0] * nf
    adj = [0] * nf
    for h, (name, owner, i, role) in enumerate(holes):
        t = hole_target[h]
        if owner >= 0 and t >= 0:
            if t == owner:
                hole_target[h] = -1
                hole_fixed[h] = False
                continue
            dominated_by[t] |= 1 << owner
            adj[owner] |= 1 << t
            adj[t] |= 1 << owner
    binder = {v: label_index[eps[i].label] for v, i in binder_ep.items()}
    users = [0] * nf
    dep_binders = [0] * nf
    for f, members in enumerate(frag_eps):
        for i in members:
            q = isq[i]
            for role, val in eps[i].args:
                if q and role == "ARG0":
                    continue
                b = binder.get(val)
                if b is not None and b != f:
                    users[b] |= 1 << f
                    dep_binders[f] |= 1 << b
                    adj[b] |= 1 << f
                    adj[f] |= 1 << b

    # candidate order: quantifiers first, each group in surface order
    starts = [min([eps[i].cfrom for i in members]) if members else 1 << 30
              for members in frag_eps]
    order = tuple(sorted(range(nf), key=lambda f: (frag_quant[f] < 0, starts[f], f)))
    labels = [""] * nf
    for lab, f in label_index.items():
        if not labels[f] or (frag_eps[f] and eps[frag_eps[f][0]].label == lab):
            labels[f] = lab
    return ScopeProblem(
        tuple(labels), tuple(tuple(x) for x in frag_eps), tuple(frag_quant),
        tuple(frag_var), tuple(tuple(x) for x in frag_holes), tuple(body_hole),
        tuple(h[0] for h in holes), tuple(h[1] for h in holes), tuple(h[2] for h in holes),
        tuple(h[3] for h in holes), tuple(hole_target), tuple(hole_fixed), 0,
        tuple(dominated_by), tuple(dep_binders), tuple(users), tuple(adj), order,
        tuple(len(x) for x in frag_holes), tuple(repairs))


def _root(merged: dict[int, int], f: int) -> int:
    while f in merged:
        f = merged[f]
    return f


def _components(mask: int, adj: tuple[int, ...]) -> list[int]:
    comps = []
    while mask:
        low = mask & -mask
        comp = low
        frontier = low
        while frontier:
            b = frontier & -frontier
            frontier ^= b
            nb = adj[b.bit_length() - 1] & mask & ~comp
            comp |= nb
            frontier |= nb
        comps.append(comp)
        mask &= ~comp
    return comps


def solve(p: ScopeProblem, max_solutions: int = 1, *, relaxed: bool = False,
          budget: int = 20000) -> list[Solution]:
    """Up to ``max_solutions`` scoped readings of ``p`` (an empty list when there are none).

    Each solution maps hole index -> plugged fragment index (``-1`` = empty hole, only with
    ``relaxed``).  Deterministic: quantifiers are tried in surface order.  A reading plugs
    every hole with exactly one fragment, so without ``relaxed`` an MRS with more holes
    than fragments has none (answered at once).  ``budget`` bounds the number of
    subproblems explored; :class:`ScopeError` is raised when it is exhausted.
    """
    nf = len(p.frag_eps)
    nh = len(p.hole_names)
    if nf > nh:
        return []
    if nf < nh and not relaxed:
        return []
    spent = [0]
    full = (1 << nf) - 1
    memo: dict[tuple[int, int, int], list[tuple[tuple[int, int], ...]]] = {}
    cap = max(1, max_solutions)
    frag_quant, frag_holes, body_hole = p.frag_quant, p.frag_holes, p.body_hole
    hole_target, hole_fixed = p.hole_target, p.hole_fixed
    dominated_by, dep_binders, users, adj = p.dominated_by, p.dep_binders, p.users, p.adj
    order = p.order
    n_holes = p.n_holes
    # per fragment: what the candidate loop of go() reads
    info = [(f, 1 << f, frag_quant[f] >= 0, dominated_by[f], dep_binders[f], users[f],
             frag_holes[f]) for f in range(nf)]
    ordered = [info[f] for f in order]

    fits_memo: dict[int, bool] = {}

    def fits(fmask: int) -> bool:
        # every fragment fills one hole: |F| == 1 + holes of F (<= when holes may be empty)
        got = fits_memo.get(fmask)
        if got is not None:
            return got
        m = fmask
        count = 0
        holes = 0
        while m:
            b = m & -m
            m ^= b
            count += 1
            holes += n_holes[b.bit_length() - 1]
        ok = fits_memo[fmask] = count == holes + 1 or (relaxed and count <= holes + 1)
        return ok

    comp_memo: dict[int, list[int]] = {}

    def components(mask: int) -> list[int]:
        got = comp_memo.get(mask)
        if got is None:
            got = comp_memo[mask] = _components(mask, adj)
        return got

    def go(hole: int, fmask: int, req: int) -> list[tuple[tuple[int, int], ...]]:
        key = (hole, fmask, req)
        got = memo.get(key)
        if got is not None:
            return got
        memo[key] = []  # guards against cycles in malformed input
        spent[0] += 1
        if spent[0] > budget:
            raise ScopeError(f"scope search gave up after {budget} subproblems")
        out: list[tuple[tuple[int, int], ...]] = []
        if (req >= 0 and not (fmask >> req) & 1) or not fits(fmask):
            memo[key] = out
            return out
        candidates = (info[hole_target[hole]],) if hole_fixed[hole] else ordered
        for f, bit, quant, dom, dep, usr, holes in candidates:
            if not fmask & bit:
                continue
            if req >= 0 and f != req and not quant:
                continue
            if dom & fmask:
                continue
            if dep & fmask & ~bit:
                continue
            if quant and usr & ~fmask:
                continue
            rest = fmask & ~bit
            if not holes:
                if rest:
                    continue
                out.append(((hole, f),))
                if len(out) >= cap:
                    break
                continue
            # assign the components of the rest to the holes of f
            assign = [0] * len(holes)
            inherited = req if (quant and req >= 0 and req != f) else -1
            ok = True
            for comp in components(rest):
                where = -1
                for k, hh in enumerate(holes):
                    t = hole_target[hh]
                    hit = (t >= 0 and (comp >> t) & 1) or (
                        inherited >= 0 and hh == body_hole[f] and (comp >> inherited) & 1)
                    if hit:
                        if where >= 0 and where != k:
                            ok = False
                            break
                        where = k
                if not ok:
                    break
                if where < 0:
                    if quant:
                        where = holes.index(body_hole[f])
                    else:
                        where = 0
                assign[where] |= comp
            if not ok:
                continue
            if not relaxed and not all(assign):
                continue
            # every hole with a target must contain it
            partial: list[tuple[tuple[int, int], ...]] = [((hole, f),)]
            for k, hh in enumerate(holes):
                sub = assign[k]
                sub_req = inherited if (hh == body_hole[f] and inherited >= 0) else (
                    -1 if hole_fixed[hh] else hole_target[hh])
                if not sub:
                    if sub_req >= 0 or hole_fixed[hh]:
                        partial = []
                        break
                    partial = [s + ((hh, -1),) for s in partial]
                    continue
                child = go(hh, sub, sub_req)
                if not child:
                    partial = []
                    break
                partial = [s + c for s in partial for c in child][:cap]
            if not partial and quant:
                # a free quantifier that cannot be placed here means no quantifier can
                # (solved forms of dominance graphs, Bodirsky et al. 2004): give up early
                break
            for s in partial:
                out.append(s)
                if len(out) >= cap:
                    break
            if len(out) >= cap:
                break
        memo[key] = out
        return out

    top = p.top_hole
    top_req = -1 if hole_fixed[top] else hole_target[top]
    raw = go(top, full, top_req)
    sols: list[Solution] = []
    for s in raw:
        plug = [-1] * nh
        for hh, f in s:
            plug[hh] = f
        sols.append(tuple(plug))
    return sols
