/*
 * catalogd high availability: a model of the designation protocol
 * (written down in docs/ARCHITECTURE.md, "catalogd HA: the designation
 * protocol"; run_model.sh checks it).
 *
 * Two statestored (s = 0, 1; an HA pair, one active), two catalogd
 * (c = 0, 1; an HA pair sharing one metastore) and the metastore's writer
 * epoch record. Faults, at most MAXF per run, injected by Env:
 *   - crash: a process loses all volatile state (and its unread messages)
 *     and restarts later;
 *   - pause: a process takes no step for a while, keeping its state; the
 *     others' timeouts fire meanwhile (a timeout is modelled as "the peer is
 *     down or paused", so a pause also stands for a spurious timeout);
 *   - loss: a message in flight disappears (the sender's RPC failed, so it
 *     sends again, as the implementation does).
 * Messages are delayed arbitrarily in bounded channels (announcements to a
 * catalogd, heartbeats between the statestoreds). Registrations and the
 * metastore's transactions are synchronous (atomic steps).
 *
 * Built with -DOLD_PROTOCOL the model follows the implementation before
 * this protocol instead: a standby statestored answers a registration with
 * its own stale designation, designation versions are per statestored, a
 * statestored that takes over keeps its own old designation, the resumed
 * statestored takes the role back (id preference), a takeover takes the next
 * epoch unconditionally and keeps it when it is cancelled, and a fenced
 * catalogd takes the role back only when the epoch's owner record names an
 * older designation of the same statestored.
 *
 * Properties:
 *   safety (assertions; run without the LTL claim):
 *     - a commit is accepted only from the holder of the current epoch, and
 *       accepted commits are ordered by epoch: once a commit under epoch e
 *       was accepted, no commit under an older epoch, nor one of another
 *       writer under e, is ever accepted (never two writers);
 *     - a catalogd whose commit is accepted has applied every commit accepted
 *       before it (its takeover caught up);
 *     - the epoch record never goes back;
 *     - designation versions only grow across the pair;
 *     - only an active statestored announces a designation;
 *     - no flip-flop: the statestored that became active last never steps
 *       down.
 *   liveness (LTL "live", checked with weak fairness): once the faults are
 *     over, eventually and for ever exactly one statestored is active, the
 *     catalogd it designates is active and holds the current epoch, and the
 *     other catalogd is not active.
 */

#ifndef MAXF
#define MAXF 2              /* faults per run */
#endif

#define NONE    2           /* no catalogd / no statestored */
#define STANDBY 0
#define TAKING  1           /* designated; taking the epoch, catching up */
#define ACTIVE  2

/* A designation version is (activation version of the statestored that
 * made it, sequence number within that activation), encoded as
 * av * NSEQ + seq. Activation versions come from one clock (the
 * implementation's wall-clock active_statestored_version), so every
 * designation of a later activation is greater than every designation of an
 * earlier one, whichever statestored made them. */
#define NSEQ  8
#define MAXAV (MAXF + 3)    /* activations per run: 1 + one per fault */
#define MAXSEQ (NSEQ - 1)
#define MAXEPOCH 12         /* OLD_PROTOCOL: epochs taken */

/* Failed assertions are the safety verdict. LIVENESS_ONLY drops the
 * protocol-property assertions (kept: the bound checks of the correct
 * protocol), so that a liveness run of the old protocol reports its
 * deadlock, not a safety violation found first. */
#ifdef LIVENESS_ONLY
#define CHECK(x) skip
#else
#define CHECK(x) assert(x)
#endif

/* ---------------------------------------------------------------- state */

byte faults = 0;
bool faults_done = false;
bool bound_hit = false;     /* OLD_PROTOCOL: a bound cut the run short */
bool kept_epoch = false;    /* OLD_PROTOCOL: a cancelled takeover kept its epoch */
byte clock = 0;             /* activation versions */
byte newest = NONE;         /* the statestored that became active last */
byte max_dv = 0;            /* the highest designation version made */

/* statestored s (volatile: lost in a crash) */
bool s_up[2];
bool s_paused[2];
bool s_active[2];
byte s_av[2];               /* its activation version (0: never active) */
byte s_dv[2];               /* designation version: its own, or the peer's it follows */
byte s_dc[2] = NONE;        /* the designated catalogd */
byte s_seq[2];              /* designations made in this activation */
byte s_pref[2] = NONE;      /* OLD_PROTOCOL: catalogd named by the peer's heartbeat */
bool s_reg[4];              /* [s*2+c]: c is a registered, healthy candidate at s */
bool s_ack[4];              /* [s*2+c]: c acknowledged the current designation */
bool needs_reg[4];          /* [s*2+c]: c must (re-)register with s (either restarted) */

/* catalogd c (volatile) */
bool c_up[2];
bool c_paused[2];
byte c_role[2];             /* STANDBY, TAKING, ACTIVE */
byte c_held[2];             /* the epoch its commits carry (0: none, commits refused) */
bool c_took[2];             /* a takeover in progress took the epoch */
bool c_fresh[2];            /* has applied every commit accepted so far */
byte c_sv[2];               /* the newest designation's version it has seen */
/* OLD_PROTOCOL catalogd */
bool c_desig[2];            /* the last designation heard names it */
bool c_changed[2];          /* a designation was heard during the takeover */
byte c_cur_s[2] = NONE;     /* statestored and version of that designation */
byte c_cur_v[2];
byte c_seen[4];             /* [c*2+s]: newest version heard from s */

/* the metastore (durable) */
byte rec_dv = 0;            /* the epoch record: designation version (OLD: epoch counter) */
byte rec_c = NONE;          /* its owner */
byte rec_s = NONE;          /* OLD_PROTOCOL: owner record's statestored and version */
byte rec_sv = 0;

/* announcements to catalogd c: (statestored, designation version, catalogd) */
chan ann[2] = [2] of { byte, byte, byte };
/* heartbeats to statestored s: (activation version, designation version, catalogd) */
chan hb[2] = [1] of { byte, byte, byte };

hidden byte t_s, t_v, t_d, t_c;   /* scratch, dead between steps */

#define ss_ok(s)  (s_up[s] && !s_paused[s])
#define cd_ok(c)  (c_up[c] && !c_paused[c])
#define REG(s, c) s_reg[(s) * 2 + (c)]

/* ---------------------------------------------------------------- liveness */

#define serving(c) (cd_ok(c) && c_role[c] == ACTIVE && rec_c == c && rec_dv == c_held[c])
#define only_active(s) (ss_ok(s) && s_active[s] && !(ss_ok(1 - s) && s_active[1 - s]))
#define good_c(c) (serving(c) && c_role[1 - c] != ACTIVE && \
                   ((only_active(0) && s_dc[0] == c) || (only_active(1) && s_dc[1] == c)))
#define good (good_c(0) || good_c(1))

#ifndef FIELD_TRACE
ltl live { <> [] (good || bound_hit) }
#else
/* OLD_PROTOCOL: only runs in which a cancelled takeover kept its epoch count
 * (the counterexample then is the one of the fault-injection runs) */
ltl live { <> [] (good || bound_hit || !kept_epoch) }
#endif

/* ---------------------------------------------------------------- statestored */

/* t_c := a healthy candidate at s (nondeterministic), else NONE */
inline pick_candidate(s) {
  if
  :: REG(s, 0) -> t_c = 0
  :: REG(s, 1) -> t_c = 1
  :: else -> t_c = NONE
  fi
}

#ifndef OLD_PROTOCOL
/* A new designation of t_c (!= NONE) in s's activation. */
inline designate(s) {
  if
  :: s_seq[s] < MAXSEQ ->
     s_seq[s]++;
     s_dv[s] = s_av[s] * NSEQ + s_seq[s];
     s_dc[s] = t_c;
     printf("statestored %d designates catalogd %d (version %d.%d)\n", s, t_c, s_av[s], s_seq[s]);
     s_ack[s * 2] = false;
     s_ack[s * 2 + 1] = false;
     /* versions only grow across the pair: each designation of the
      * statestored that became active last is above every designation made
      * before (a stale active's, during a split, stay below them) */
     if
     :: s == newest -> CHECK(s_dv[s] > max_dv); max_dv = s_dv[s]
     :: else -> CHECK(s_dv[s] < clock * NSEQ)
     fi
  :: else -> assert(false)           /* MAXSEQ too small: raise NSEQ */
  fi
}
#else
/* OLD: CatalogdHa::Evaluate (a designation changed: version_ + 1, per statestored). */
inline designate(s) {
  if
  :: s_dv[s] < MAXSEQ ->
     s_dv[s]++;
     s_dc[s] = t_c;
     printf("statestored %d designates catalogd %d (version %d)\n", s, t_c, s_dv[s]);
     s_ack[s * 2] = false;
     s_ack[s * 2 + 1] = false;
     if
     :: s == newest -> CHECK(s_dv[s] > max_dv); max_dv = s_dv[s]
     :: else -> CHECK(s_dv[s] < clock * NSEQ)
     fi
  :: else -> bound_hit = true
  fi
}
/* OLD: Evaluate without a healthy active: the peer's catalogd first. */
inline old_evaluate(s) {
  if
  :: s_dc[s] != NONE && REG(s, s_dc[s]) -> skip   /* a healthy active keeps the role */
  :: else ->
     if
     :: s_pref[s] != NONE && REG(s, s_pref[s]) -> t_c = s_pref[s]
     :: else -> pick_candidate(s)
     fi;
     if :: t_c != NONE -> designate(s) :: else -> skip fi
  fi
}
#endif

inline activate(s) {
  if
  :: clock < MAXAV ->
     clock++;
     s_av[s] = clock;
     s_active[s] = true;
     newest = s;
     printf("statestored %d becomes active (activation %d)\n", s, clock);
     s_ack[s * 2] = false;            /* every subscriber hears of the new role */
     s_ack[s * 2 + 1] = false;
#ifndef OLD_PROTOCOL
     /* Continue the peer's history: keep the catalogd it designated (if
      * healthy here), under a version of this activation. */
     s_seq[s] = 0;
     if
     :: s_dc[s] != NONE && REG(s, s_dc[s]) -> t_c = s_dc[s]
     :: else -> pick_candidate(s)
     fi;
     if
     :: t_c != NONE -> designate(s)
     :: else -> s_dc[s] = NONE; s_dv[s] = s_av[s] * NSEQ
     fi
#else
     old_evaluate(s)                  /* its own old designation, if healthy */
#endif
#ifndef OLD_PROTOCOL
  :: else -> assert(false)            /* MAXAV too small */
#else
  :: else -> bound_hit = true
#endif
  fi
}

inline step_down(s) {
  printf("statestored %d steps down\n", s);
  CHECK(s != newest);                 /* no flip-flop */
  s_active[s] = false;
  s_av[s] = 0;
  s_seq[s] = 0
}

#ifndef OLD_PROTOCOL
/* Worth sending: the peer would step down, or follows an older designation. */
#define HB_USEFUL(s, p) (s_up[p] && ((s_active[p] && s_av[p] < s_av[s]) || \
                                     (!s_active[p] && s_dv[p] < s_dv[s])))
#else
/* (an active peer that is preferred, the smaller id, ignores it; any other
 * steps down and takes the catalogd as its preference) */
#define HB_USEFUL(s, p) (s_up[p] && !(s_active[p] && p < s) && (s_active[p] || s_pref[p] != s_dc[s]))
#endif

#define ANNOUNCE_DUE(s, c) (s_active[s] && s_dc[s] != NONE && REG(s, c) && !s_ack[(s) * 2 + (c)])
#define NEEDS_DESIGNATION(s) (s_active[s] && (s_dc[s] == NONE || !REG(s, s_dc[s])) && (REG(s, 0) || REG(s, 1)))
#define DETECT(s, c) (s_active[s] && REG(s, c) && (!c_up[c] || c_paused[c]))

/* A standby takes over when the peer is down, paused (its heartbeats stop)
 * or not active either (start-up). */
#define ELIGIBLE(s, p) (!s_active[s] && (!s_up[p] || s_paused[p] || !s_active[p]))
#define ANNOUNCE(s, c) (ANNOUNCE_DUE(s, c) && nfull(ann[c]))
#define HEARTBEAT(s, p) (s_active[s] && HB_USEFUL(s, p) && nfull(hb[p]))
#define TICK_WORK(s, p) (ELIGIBLE(s, p) || DETECT(s, 0) || DETECT(s, 1) || \
                         NEEDS_DESIGNATION(s) || ANNOUNCE(s, 0) || ANNOUNCE(s, 1) || \
                         HEARTBEAT(s, p))

proctype Statestored(byte s) {
  byte p = 1 - s;
end:
  do
  /* a heartbeat from the peer */
  :: atomic { ss_ok(s) && nempty(hb[s]) ->
       hb[s]?t_s, t_v, t_d;           /* t_s: the sender's activation version */
#ifndef OLD_PROTOCOL
       if
       :: s_active[s] && t_s > s_av[s] -> step_down(s)   /* a later activation wins */
       :: else -> skip                /* (an older one steps down on ours) */
       fi;
       if
       :: !s_active[s] && t_v > s_dv[s] -> s_dv[s] = t_v; s_dc[s] = t_d
       :: else -> skip
       fi
#else
       if
       :: s_active[s] && s < p -> skip                  /* preferred: keeps the role */
       :: else ->
          if :: s_active[s] -> step_down(s) :: else -> skip fi;
          s_pref[s] = t_d                                 /* PreferCatalogd */
       fi
#endif
     }
  /* one round of the statestored's own work (under its lock) */
  :: atomic { ss_ok(s) && TICK_WORK(s, p) ->
       if :: ELIGIBLE(s, p) -> activate(s) :: else -> skip fi;
       /* the active catalogd missed its heartbeats */
       if
       :: DETECT(s, 0) -> REG(s, 0) = false; printf("statestored %d: catalogd 0 failed\n", s)
       :: else -> skip
       fi;
       if
       :: DETECT(s, 1) -> REG(s, 1) = false; printf("statestored %d: catalogd 1 failed\n", s)
       :: else -> skip
       fi;
       /* designate a healthy candidate when the designated one is not */
       if :: NEEDS_DESIGNATION(s) -> pick_candidate(s); designate(s) :: else -> skip fi;
       /* announce the designation (UpdateCatalogd / UpdateStatestoredRole) */
       /* (no "else" next to channel tests: spin does not allow it) */
       if
       :: ANNOUNCE(s, 0) -> CHECK(s_active[s]); ann[0]!s, s_dv[s], s_dc[s]; s_ack[s * 2] = true
       :: !ANNOUNCE_DUE(s, 0) -> skip
       :: ANNOUNCE_DUE(s, 0) && full(ann[0]) -> skip
       fi;
       if
       :: ANNOUNCE(s, 1) -> CHECK(s_active[s]); ann[1]!s, s_dv[s], s_dc[s]; s_ack[s * 2 + 1] = true
       :: !ANNOUNCE_DUE(s, 1) -> skip
       :: ANNOUNCE_DUE(s, 1) && full(ann[1]) -> skip
       fi;
       /* the active's heartbeat to the peer */
       if
       :: HEARTBEAT(s, p) -> hb[p]!s_av[s], s_dv[s], s_dc[s]
       :: !(s_active[s] && HB_USEFUL(s, p)) -> skip
       :: s_active[s] && HB_USEFUL(s, p) && full(hb[p]) -> skip
       fi
     }
  od
}

/* ---------------------------------------------------------------- catalogd */

#ifndef OLD_PROTOCOL
/* A designation (version t_v, catalogd t_d) reached catalogd c. */
inline observe(c) {
  if
  :: t_v > c_sv[c] ->                 /* newer: versions compare across the pair */
     c_sv[c] = t_v;
     printf("catalogd %d hears: catalogd %d is designated (version %d.%d)\n", c, t_d, t_v / NSEQ, t_v % NSEQ);
     c_desig[c] = (t_d == c);
     if
     :: t_d == c ->
        if
        :: c_role[c] == STANDBY -> c_role[c] = TAKING; c_took[c] = false
        :: c_role[c] == TAKING -> c_took[c] = false  /* again, under the new version */
        :: c_role[c] == ACTIVE -> skip             /* re-keys its epoch */
        fi
     :: else -> c_role[c] = STANDBY; c_held[c] = 0; c_took[c] = false
     fi
  :: else -> skip                     /* older or repeated: ignored */
  fi
}
#else
/* OLD: a designation (statestored t_s, version t_v, catalogd t_d):
 * CatalogdDesignationTracker per subscriber, then CatalogdRole::OnDesignation. */
inline observe(c) {
  if
  :: t_v > c_seen[c * 2 + t_s] ->
     c_seen[c * 2 + t_s] = t_v;
     printf("catalogd %d hears from statestored %d: catalogd %d is designated (version %d)\n", c, t_s, t_d, t_v);
     c_changed[c] = true;             /* ++generation_ */
     c_cur_s[c] = t_s;
     c_cur_v[c] = t_v;
     if
     :: t_d == c -> c_desig[c] = true
     :: else -> c_desig[c] = false; c_role[c] = STANDBY; c_held[c] = 0
     fi
  :: else -> skip
  fi
}
#endif

/* The subscriber side: registrations and announcements. */
proctype CatalogdSubscriber(byte c) {
end:
  do
  :: atomic { cd_ok(c) && ss_ok(0) && (needs_reg[c] || !REG(0, c)) ->
#ifdef OLD_PROTOCOL
       if                             /* StartOver: a new statestored (or catalogd) */
       :: needs_reg[c] -> c_seen[c * 2] = 0
       :: else -> skip
       fi;
#endif
       needs_reg[c] = false;
       REG(0, c) = true;
       printf("catalogd %d registers with statestored 0\n", c);
       s_ack[c] = false;
#ifdef OLD_PROTOCOL
       if                             /* the reply's designation, even a standby's */
       :: s_dc[0] != NONE -> t_s = 0; t_v = s_dv[0]; t_d = s_dc[0]; observe(c)
       :: else -> skip
       fi
#endif
     }
  :: atomic { cd_ok(c) && ss_ok(1) && (needs_reg[2 + c] || !REG(1, c)) ->
#ifdef OLD_PROTOCOL
       if
       :: needs_reg[2 + c] -> c_seen[c * 2 + 1] = 0
       :: else -> skip
       fi;
#endif
       needs_reg[2 + c] = false;
       REG(1, c) = true;
       printf("catalogd %d registers with statestored 1\n", c);
       s_ack[2 + c] = false;
#ifdef OLD_PROTOCOL
       if
       :: s_dc[1] != NONE -> t_s = 1; t_v = s_dv[1]; t_d = s_dc[1]; observe(c)
       :: else -> skip
       fi
#endif
     }
  :: atomic { cd_ok(c) && nempty(ann[c]) ->
       ann[c]?t_s, t_v, t_d;
       observe(c) }
  od
}

/* A commit (any write transaction) under the epoch held. */
inline commit(c) {
#ifndef OLD_PROTOCOL
  if
  :: rec_dv == c_held[c] && rec_c == c ->
#else
  if
  :: rec_dv == c_held[c] ->
#endif
     /* it has applied every commit accepted before: no other writer
      * committed since its takeover caught up */
     CHECK(c_fresh[c]);
     c_fresh[1 - c] = false
  :: else ->                          /* refused: fenced */
     printf("catalogd %d: commit refused (fenced)\n", c);
     c_held[c] = 0;
#ifndef OLD_PROTOCOL
     /* claims the epoch again for the newest designation it heard if that
      * names it (the claim is refused, and it waits, when a newer
      * designation holds the epoch); otherwise waits for a newer one */
     if
     :: c_desig[c] -> c_role[c] = TAKING; c_took[c] = false
     :: else -> c_role[c] = STANDBY
     fi
#else
     c_role[c] = STANDBY;
#endif
#ifdef OLD_PROTOCOL
     /* OnFenced: take the role back only if the owner record names an
      * older designation of the same statestored */
     if
     :: c_desig[c] && rec_s == c_cur_s[c] && rec_sv < c_cur_v[c] -> skip
     :: else -> c_desig[c] = false; printf("catalogd %d: standby until designated again\n", c)
     fi
#endif
  fi
}

/* The role thread: takeovers and commits. */
proctype CatalogdWorker(byte c) {
end:
  do
#ifndef OLD_PROTOCOL
  /* takeover, step 1: compare-and-set of the epoch record, ordered by
   * designation: (v, c) replaces (v', c') iff v' < v, or v' == v and c' == c */
  :: atomic { cd_ok(c) && c_role[c] == TAKING && !c_took[c] ->
       if
       :: rec_dv < c_sv[c] || (rec_dv == c_sv[c] && rec_c == c) ->
          rec_dv = c_sv[c];
          rec_c = c;
          c_took[c] = true;
          printf("catalogd %d takes the epoch (version %d.%d)\n", c, rec_dv / NSEQ, rec_dv % NSEQ)
       :: else ->                       /* a newer designation was acted on */
          c_role[c] = STANDBY;
          printf("catalogd %d: the epoch is at a newer designation; waits\n", c)
       fi }
  /* step 2: caught up with the log's head; serving */
  :: atomic { cd_ok(c) && c_role[c] == TAKING && c_took[c] ->
       c_role[c] = ACTIVE;
       printf("catalogd %d is active\n", c);
       c_held[c] = c_sv[c];         /* the version it took: any newer one resets c_took */
       c_took[c] = false;
       c_fresh[c] = true }
#else
  /* TakeOver: AcquireWriterEpoch takes the next epoch, whatever it was */
  :: atomic { cd_ok(c) && c_desig[c] && c_role[c] != ACTIVE && !c_took[c] ->
       if
       :: rec_dv < MAXEPOCH ->
          rec_dv++;
          rec_c = c;
          rec_s = c_cur_s[c];
          rec_sv = c_cur_v[c];
          printf("catalogd %d takes epoch %d (owner: statestored %d, designation %d)\n", c, rec_dv, rec_s, rec_sv);
          c_took[c] = true;
          c_held[c] = rec_dv;         /* (commits only once ACTIVE) */
          c_role[c] = TAKING;
          c_changed[c] = false
       :: else -> bound_hit = true
       fi }
  /* caught up: serving, unless the designation changed meanwhile (then the
   * takeover is cancelled and the epoch it took stays taken) */
  :: atomic { cd_ok(c) && c_took[c] ->
       if
       :: c_changed[c] || !c_desig[c] ->
          printf("catalogd %d: takeover cancelled (the designation changed), the epoch it took stays taken\n", c);
          c_took[c] = false; c_held[c] = 0; c_role[c] = STANDBY;
          kept_epoch = true
       :: else ->
          printf("catalogd %d is active (epoch %d)\n", c, c_held[c]);
          c_role[c] = ACTIVE; c_took[c] = false; c_fresh[c] = true
       fi }
#endif
  :: atomic { cd_ok(c) && c_role[c] == ACTIVE ->
#ifndef OLD_PROTOCOL
       if
       /* re-designated while active: re-key the epoch it still holds */
       :: c_sv[c] > c_held[c] ->
          if
          :: rec_dv == c_held[c] && rec_c == c ->
             rec_dv = c_sv[c];
             c_held[c] = c_sv[c];
             printf("catalogd %d re-keys its epoch (version %d.%d)\n", c, rec_dv / NSEQ, rec_dv % NSEQ)
          :: else ->                  /* lost it meanwhile: a full takeover */
             c_role[c] = TAKING; c_held[c] = 0; c_took[c] = false
          fi
       :: else -> commit(c)
       fi
#else
       commit(c)
#endif
     }
  od
}

/* ---------------------------------------------------------------- faults */

#ifdef OLD_PROTOCOL
/* Removes statestored s's announcements from ann[c]. */
inline drop_from(c, s) {
  t_c = len(ann[c]);
  do
  :: t_c > 0 ->
     ann[c]?t_s, t_v, t_d;
     if :: t_s != s -> ann[c]!t_s, t_v, t_d :: else -> skip fi;
     t_c--
  :: else -> break
  od
}
#endif

inline crash_statestored(s) {
  printf("FAULT: statestored %d crashes\n", s);
  s_up[s] = false; s_paused[s] = false; s_active[s] = false;
  s_av[s] = 0; s_dv[s] = 0; s_dc[s] = NONE; s_seq[s] = 0; s_pref[s] = NONE;
  REG(s, 0) = false; REG(s, 1) = false;
  s_ack[s * 2] = false; s_ack[s * 2 + 1] = false;
  needs_reg[s * 2] = true; needs_reg[s * 2 + 1] = true;
  do
  :: nempty(hb[s]) -> hb[s]?_, _, _
  :: empty(hb[s]) -> break
  od;
#ifdef OLD_PROTOCOL
  /* its announcements still in flight are refused: they carry the old
   * statestore id (CheckAnnouncementIds); versions restart with the new one */
  drop_from(0, s);
  drop_from(1, s)
#endif
}

inline crash_catalogd(c) {
  printf("FAULT: catalogd %d crashes\n", c);
  c_up[c] = false; c_paused[c] = false;
  c_role[c] = STANDBY; c_held[c] = 0; c_took[c] = false; c_fresh[c] = false;
  c_sv[c] = 0;
  c_desig[c] = false; c_changed[c] = false; c_cur_s[c] = NONE; c_cur_v[c] = 0;
  c_seen[c * 2] = 0; c_seen[c * 2 + 1] = 0;
  needs_reg[c] = true; needs_reg[2 + c] = true;
  do
  :: nempty(ann[c]) -> ann[c]?_, _, _
  :: empty(ann[c]) -> break
  od
}

/* An announcement lost in flight: its sender's RPC failed, it sends again. */
inline lose_announcement(c) {
  ann[c]?t_s, t_v, t_d;
  printf("FAULT: an announcement to catalogd %d is lost\n", c);
  s_ack[t_s * 2 + c] = false
}

proctype Env() {
  do
  :: atomic { faults < MAXF && s_up[0] -> faults++; crash_statestored(0) }
  :: atomic { faults < MAXF && s_up[1] -> faults++; crash_statestored(1) }
  :: atomic { faults < MAXF && ss_ok(0) -> faults++; s_paused[0] = true; printf("FAULT: statestored 0 pauses\n") }
  :: atomic { faults < MAXF && ss_ok(1) -> faults++; s_paused[1] = true; printf("FAULT: statestored 1 pauses\n") }
  :: atomic { faults < MAXF && c_up[0] -> faults++; crash_catalogd(0) }
  :: atomic { faults < MAXF && c_up[1] -> faults++; crash_catalogd(1) }
  :: atomic { faults < MAXF && cd_ok(0) -> faults++; c_paused[0] = true; printf("FAULT: catalogd 0 pauses\n") }
  :: atomic { faults < MAXF && cd_ok(1) -> faults++; c_paused[1] = true; printf("FAULT: catalogd 1 pauses\n") }
  :: atomic { faults < MAXF && nempty(ann[0]) -> faults++; lose_announcement(0) }
  :: atomic { faults < MAXF && nempty(ann[1]) -> faults++; lose_announcement(1) }
  :: atomic { faults < MAXF && nempty(hb[0]) -> faults++; hb[0]?_, _, _; printf("FAULT: a heartbeat to statestored 0 is lost\n") }
  :: atomic { faults < MAXF && nempty(hb[1]) -> faults++; hb[1]?_, _, _; printf("FAULT: a heartbeat to statestored 1 is lost\n") }
  /* restarts and resumptions come after any delay */
  :: atomic { !s_up[0] -> s_up[0] = true; printf("statestored 0 restarts\n") }
  :: atomic { !s_up[1] -> s_up[1] = true; printf("statestored 1 restarts\n") }
  :: atomic { s_paused[0] -> s_paused[0] = false; printf("statestored 0 resumes\n") }
  :: atomic { s_paused[1] -> s_paused[1] = false; printf("statestored 1 resumes\n") }
  :: atomic { !c_up[0] -> c_up[0] = true; printf("catalogd 0 restarts\n") }
  :: atomic { !c_up[1] -> c_up[1] = true; printf("catalogd 1 restarts\n") }
  :: atomic { c_paused[0] -> c_paused[0] = false; printf("catalogd 0 resumes\n") }
  :: atomic { c_paused[1] -> c_paused[1] = false; printf("catalogd 1 resumes\n") }
  /* no more faults */
  :: atomic { ss_ok(0) && ss_ok(1) && cd_ok(0) && cd_ok(1) -> faults_done = true; printf("no more faults\n"); break }
  od
}

init {
  atomic {
    s_up[0] = true; s_up[1] = true;
    c_up[0] = true; c_up[1] = true;
#ifdef COLD_START
    /* both statestored and both catalogd just started */
    needs_reg[0] = true; needs_reg[1] = true; needs_reg[2] = true; needs_reg[3] = true;
#else
    /* steady state (reachable from the cold start): statestored 0 active,
     * catalogd 0 designated, active, holding the epoch; all registered */
    clock = 1; newest = 0;
    s_active[0] = true; s_av[0] = 1;
    s_reg[0] = true; s_reg[1] = true; s_reg[2] = true; s_reg[3] = true;
    s_ack[0] = true; s_ack[1] = true;
    s_dc[0] = 0; s_dc[1] = 0;
    c_role[0] = ACTIVE; c_fresh[0] = true;
#ifndef OLD_PROTOCOL
    s_seq[0] = 1; s_dv[0] = NSEQ + 1; s_dv[1] = NSEQ + 1; max_dv = NSEQ + 1;
    c_held[0] = NSEQ + 1; c_sv[0] = NSEQ + 1; c_sv[1] = NSEQ + 1; c_desig[0] = true;
    rec_dv = NSEQ + 1; rec_c = 0;
#else
    s_dv[0] = 1; max_dv = 1; s_pref[1] = 0; s_dc[1] = NONE;   /* the standby has no designation */
    c_desig[0] = true; c_held[0] = 1;
    c_cur_s[0] = 0; c_cur_v[0] = 1; c_cur_s[1] = 0; c_cur_v[1] = 1;
    c_seen[0] = 1; c_seen[2] = 1;
    rec_dv = 1; rec_c = 0; rec_s = 0; rec_sv = 1;
#endif
#endif
    run Statestored(0);
    run Statestored(1);
    run CatalogdSubscriber(0);
    run CatalogdSubscriber(1);
    run CatalogdWorker(0);
    run CatalogdWorker(1);
    run Env()
  }
}
