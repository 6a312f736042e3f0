//! What a search does: the algorithm, the named settings (`research`, `play`), the
//! transposition-table mode, and every knob in one [`SearchConfig`].

use super::sorting::SortConfig;

pub use games::UnknownName;

use crate::named_value::named_enum;

named_enum! {
    /// The sequential algorithm.
    Algorithm, "algorithm", {
        /// Plain negamax without pruning (the test oracle).
        Minimax => "minimax",
        /// Fail-soft negamax alpha-beta (Knuth and Moore).
        AlphaBeta => "alphabeta",
        /// Principal variation search / NegaScout: null windows after the first child, re-search
        /// on a fail high.
        Pvs => "pvs",
    }
}

named_enum! {
    /// The named settings.
    Setting, "setting", {
        /// Fixed depth, no window-dependent pruning or extensions, fully deterministic: the
        /// setting of the experiments, in which every parallel algorithm must return the
        /// sequential value.
        Research => "research",
        /// Every enhancement that makes the engine stronger (null move, late move reductions,
        /// check extensions, SEE, reverse futility and delta pruning, mate-distance pruning,
        /// transposition cutoffs at any sufficient depth).
        Play => "play",
    }
}

named_enum! {
    /// How the transposition table is used.
    TtMode, "transposition-table mode", {
        /// No table.
        Off => "off",
        /// Stored values cut off only at exactly the stored depth (the papers' experimental
        /// setting): values stay those of the fixed-depth tree; moves are used for ordering.
        ExactDepth => "exact",
        /// Stored values cut off at any depth they cover (stored depth at least the depth
        /// needed): stronger, but values may differ from the fixed-depth tree.
        Normal => "normal",
    }
}

named_enum! {
    /// Which results a position's table entry takes.
    TtReplace, "table replacement rule", {
        /// Every new result of the position replaces its entry.
        Always => "always",
        /// A new result replaces the position's entry only when it is at least as deep as the
        /// stored one (Brockington's programs: `if (h_length <= plytogo) store(...)`, thesis
        /// figure 5.10); other positions are replaced as under `always`.
        Deeper => "deeper",
    }
}

/// Every knob of a search. Build one with [`SearchConfig::research`] or
/// [`SearchConfig::play`] and change fields as needed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The named setting; [`Setting::Play`] turns on the pruning and extensions.
    pub setting: Setting,
    /// How the transposition table is used.
    pub tt_mode: TtMode,
    /// Which results a position's table entry takes.
    pub tt_replace: TtReplace,
    /// Transposition-table size in MiB (ignored when `tt_mode` is off).
    pub tt_mib: usize,
    /// At most this many table entries, when fewer than `tt_mib` holds (the table a modelled
    /// machine had room for: `dib::CostModel::max_table_entries`); `None`: `tt_mib` alone.
    pub tt_entries: Option<usize>,
    /// Nodes with fewer plies left than this neither probe nor store the table (frontier nodes
    /// are many, and a probe costs a cache miss). 1 uses the table at every interior node; 0 at
    /// the horizon nodes too, before their quiescence search.
    pub tt_min_depth: u32,
    /// Move ordering from the TT move, the game's hints, killers and history; off gives the
    /// game's generation order (the papers' "no sorting").
    pub move_ordering: bool,
    /// The sorting regime of Rezaie and Finkel (section 5) and its parameters.
    pub sorting: SortConfig,
    /// Iterative deepening's aspiration window half-width around the previous value;
    /// `None` searches every iteration with a full window.
    pub aspiration: Option<i32>,
    /// Iterative deepening from one ply to the requested depth (the default); off, one search
    /// at the requested depth with a full window, as the two-PDP-11 thesis's program searches. The
    /// split engine deepens exactly when the sequential search does.
    pub deepening: bool,
    /// Marsland and Popowich's refutation table: each iteration searches the root's moves
    /// sorted by the last iteration's values and follows, below each, the line the last
    /// iteration searched first (`refutation`). Off by default; Marsland and Popowich's experiments
    /// turn it on.
    pub refutation_table: bool,
    /// Which enhancements the play setting uses (ignored in the research setting).
    pub play_features: PlayFeatures,
    /// How far below the horizon the quiescence search goes: `None` searches the tactical moves
    /// out (the default); `Some(k)` evaluates every node `k` plies below the horizon
    /// statically, as the two-PDP-11 thesis's program does with MMAXD = MAXD + 2 ("Nodes at depth
    /// MMAXD are scored statically", thesis l. 389-390).
    pub quiescence_plies: Option<u32>,
}

/// The enhancements of the play setting, each switchable (all but ProbCut on by default). The
/// research setting uses none of them whatever these say. The margin-based pruning (reverse
/// futility, delta pruning) acts only in games whose evaluation has a unit ([`games::Game::margin_unit`]), SEE only where the game has one ([`games::Game::see`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayFeatures {
    /// Null-move pruning (R = 2 + depth/6, not in check, not at PV nodes, only where the game
    /// offers a null move, after a static evaluation at or above beta).
    pub null_move: bool,
    /// Late move reductions (one ply from the fourth move, two from the ninth, at non-PV nodes
    /// with three plies or more left, for quiet-looking moves; re-searched on a fail high).
    pub late_move_reductions: bool,
    /// Check extensions (one ply when a move gives check, up to twice the nominal depth).
    pub check_extensions: bool,
    /// ProbCut (Buro 1995) with the game's model ([`games::Game::probcut`]; games without one
    /// are unaffected): off by default, the variable-depth Othello search of thesis table 6.2.
    pub probcut: bool,
    /// Captures that lose material by static exchange ordered after the killers.
    pub see_ordering: bool,
    /// Quiescence skips captures that lose material by static exchange.
    pub see_quiescence: bool,
    /// Delta pruning in quiescence: a capture whose exchange cannot bring the evaluation within
    /// two units of alpha is skipped.
    pub delta: bool,
    /// Reverse futility (static null move) pruning.
    pub reverse_futility: bool,
    /// No null move for a side with only king and pawns ([`games::Game::has_non_pawn_material`]).
    pub zugzwang_guard: bool,
    /// Mate-distance pruning.
    pub mate_distance: bool,
    /// Where the game's move hint is only a static preference ([`games::Game::hint_is_static`]:
    /// Othello's square weights), killers and then history order the moves above it, and late
    /// move reductions reach every move but the table's and the killers.
    pub killers_first: bool,
    /// The engine ([`crate::engine::Player`], sequential search) solves the position exactly
    /// with the game's endgame solver ([`games::Game::endgame_solver`]) when few enough moves
    /// are left, and plays the midgame search's move when the solve does not finish in time.
    pub endgame_solver: bool,
    /// The game's trained evaluation ([`games::Game::evaluate_trained`]: Othello's pattern
    /// evaluation) instead of [`games::Game::evaluate`].
    pub trained_eval: bool,
}

named_enum! {
    /// One switch of [`PlayFeatures`], by its command-line name.
    PlayFeature, "play feature", {
        /// [`PlayFeatures::null_move`].
        NullMove => "null-move",
        /// [`PlayFeatures::late_move_reductions`].
        LateMoveReductions => "lmr",
        /// [`PlayFeatures::check_extensions`].
        CheckExtensions => "check-extensions",
        /// [`PlayFeatures::probcut`].
        ProbCut => "probcut",
        /// [`PlayFeatures::see_ordering`].
        SeeOrdering => "see-ordering",
        /// [`PlayFeatures::see_quiescence`].
        SeeQuiescence => "see-quiescence",
        /// [`PlayFeatures::delta`].
        Delta => "delta",
        /// [`PlayFeatures::reverse_futility`].
        ReverseFutility => "reverse-futility",
        /// [`PlayFeatures::zugzwang_guard`].
        ZugzwangGuard => "zugzwang-guard",
        /// [`PlayFeatures::mate_distance`].
        MateDistance => "mate-distance",
        /// [`PlayFeatures::killers_first`].
        KillersFirst => "killers-first",
        /// [`PlayFeatures::endgame_solver`].
        EndgameSolver => "endgame-solver",
        /// [`PlayFeatures::trained_eval`].
        TrainedEval => "trained-eval",
    }
}

impl PlayFeatures {
    /// Every enhancement off.
    pub const NONE: PlayFeatures = PlayFeatures {
        null_move: false,
        late_move_reductions: false,
        check_extensions: false,
        probcut: false,
        see_ordering: false,
        see_quiescence: false,
        delta: false,
        reverse_futility: false,
        zugzwang_guard: false,
        mate_distance: false,
        killers_first: false,
        endgame_solver: false,
        trained_eval: false,
    };

    /// The switch of `feature`.
    pub fn switch(&mut self, feature: PlayFeature) -> &mut bool {
        match feature {
            PlayFeature::NullMove => &mut self.null_move,
            PlayFeature::LateMoveReductions => &mut self.late_move_reductions,
            PlayFeature::CheckExtensions => &mut self.check_extensions,
            PlayFeature::ProbCut => &mut self.probcut,
            PlayFeature::SeeOrdering => &mut self.see_ordering,
            PlayFeature::SeeQuiescence => &mut self.see_quiescence,
            PlayFeature::Delta => &mut self.delta,
            PlayFeature::ReverseFutility => &mut self.reverse_futility,
            PlayFeature::ZugzwangGuard => &mut self.zugzwang_guard,
            PlayFeature::MateDistance => &mut self.mate_distance,
            PlayFeature::KillersFirst => &mut self.killers_first,
            PlayFeature::EndgameSolver => &mut self.endgame_solver,
            PlayFeature::TrainedEval => &mut self.trained_eval,
        }
    }
}

impl Default for PlayFeatures {
    fn default() -> Self {
        let mut f = PlayFeatures::NONE;
        for feature in PlayFeature::ALL {
            *f.switch(*feature) = *feature != PlayFeature::ProbCut;
        }
        f
    }
}

impl SearchConfig {
    /// The research setting: PVS, exact-depth transposition table, ordering on, no sorting.
    #[must_use]
    pub fn research() -> Self {
        SearchConfig {
            algorithm: Algorithm::Pvs,
            setting: Setting::Research,
            tt_mode: TtMode::ExactDepth,
            tt_replace: TtReplace::Always,
            tt_mib: 16,
            tt_entries: None,
            tt_min_depth: 2,
            move_ordering: true,
            sorting: SortConfig::default(),
            aspiration: Some(50),
            deepening: true,
            refutation_table: false,
            play_features: PlayFeatures::default(),
            quiescence_plies: None,
        }
    }

    /// The play setting: PVS, normal transposition table and every enhancement.
    #[must_use]
    pub fn play() -> Self {
        SearchConfig {
            setting: Setting::Play,
            tt_mode: TtMode::Normal,
            ..SearchConfig::research()
        }
    }

    /// Rezaie and Finkel's unsorted tree (section 4: "not sorting at all"): the research setting
    /// with plain fail-soft alpha-beta, children in the game's generation order, no transposition
    /// table, no killer or history ordering, no move hints, no sorting regime and no
    /// aspiration window. Every node is searched exactly as the paper's Pascal alpha-beta
    /// (section 3.1) searches it. Setting a sorting regime on it gives the paper's sorted
    /// trees (section 5), in which the regime's look-ahead is the only ordering.
    #[must_use]
    pub fn unsorted() -> Self {
        SearchConfig::research().make_unsorted()
    }

    /// This configuration with the search's own ordering off, as in [`SearchConfig::unsorted`]:
    /// alpha-beta, no table, generation order (no killers, history or hints), no aspiration.
    /// The sorting regime and its parameters are kept: with a regime, its look-ahead is the
    /// only ordering (Rezaie and Finkel's sorted runs); without one the tree is unsorted.
    #[must_use]
    pub fn make_unsorted(self) -> Self {
        SearchConfig {
            algorithm: Algorithm::AlphaBeta,
            tt_mode: TtMode::Off,
            move_ordering: false,
            aspiration: None,
            deepening: true,
            ..self
        }
    }

    /// Whether the search has no ordering of its own ([`SearchConfig::make_unsorted`]'s
    /// settings; a sorting regime may still sort).
    #[must_use]
    pub fn is_unsorted(&self) -> bool {
        *self == self.make_unsorted()
    }

    /// The defaults of a named setting.
    #[must_use]
    pub fn for_setting(setting: Setting) -> Self {
        match setting {
            Setting::Research => SearchConfig::research(),
            Setting::Play => SearchConfig::play(),
        }
    }

    /// Whether the play setting's enhancements ([`SearchConfig::play_features`]) apply.
    #[must_use]
    pub fn play_enhancements(&self) -> bool {
        self.setting == Setting::Play
    }
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig::research()
    }
}
