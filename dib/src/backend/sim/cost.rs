//! The simulator's cost model: what each kind of work costs ([`CostModel`]), and the presets,
//! which are data (`dib/presets/*.toml`, each number with where it comes from).
//!
//! A processor's clock advances by
//!
//! ```text
//! (search·node + horizon·h + quiescence·q + static_eval·s + control·c + frames·f + library·node)
//!   · speed%/100
//!   + table_probes · probe + shared_probes · shared_probe(k)
//! ```
//!
//! for the work it charges ([`Work`]), and by the LogP overheads for messages (`o_send` at the
//! sender, `o_recv` at the receiver, `L` on the wire) plus the runtime's handling of a message
//! (`message_handling_ns`, at the sender and again at the receiver). A link that moves a
//! message a word at a time adds per-word costs for the message's size in 16-bit words (its
//! content plus `message_overhead_words`): `wire_word_ns` per word on the link (charged to the
//! sender too when `sender_waits_for_wire`) and `recv_word_ns` per word at the receiver, scaled
//! by the receiver's relative cost (an interrupt per word). A shared transposition table has
//! `shared_table_ports` ports: while `k` processors use it at once, a probe costs
//! `shared_probe_ns · max(1, k / ports)` (the ports are shared fairly, so the table serves at
//! most `ports` probes per probe time); `ports = 0` means no contention. Where the table lives
//! in one processor's memory (`shared_table_home`), that processor also spends
//! `shared_serve_ns` serving each probe of another processor, if it is busy searching when the
//! probe comes (the time is added to its clock before its next slice, as messaging); a home
//! waiting for work serves in its idle time. Per-game sections
//! (`[games.chess]`) override node costs for one game: calibrated presets measure each game.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use names::UnknownName;

use crate::context::{Nanos, ProcId};
use crate::toml_error::{TomlError, one_line};
use crate::work::Work;

/// How virtual time advances: per node of each kind, per table probe, and per message (sender
/// overhead `o_s`, receiver overhead `o_r`, wire latency `L`), with per-processor speed
/// differences. Read from TOML with [`CostModel::from_toml`]; the built-in presets are
/// [`CostModel::preset`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CostModel {
    /// The preset's name (or `custom`).
    pub name: String,
    /// One line on the machine modelled.
    #[serde(default)]
    pub about: String,
    /// Virtual time of one full search node on a processor of relative cost 100.
    pub node_ns: Nanos,
    /// A horizon leaf (a node with no depth left, where evaluation or quiescence starts);
    /// `None`: `node_ns`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub horizon_ns: Option<Nanos>,
    /// A quiescence node; `None`: `node_ns`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quiescence_ns: Option<Nanos>,
    /// A static-evaluation node (a sorting look-ahead leaf, only evaluated); `None`: `node_ns`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub static_eval_ns: Option<Nanos>,
    /// A node equivalent of control overhead (an APHID master pass); `None`: `node_ns`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub control_ns: Option<Nanos>,
    /// A frame of the split engine (an interior node on its explicit stack); `None`: `node_ns`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame_ns: Option<Nanos>,
    /// A probe of the processor's own transposition table (0: part of the node cost).
    #[serde(default)]
    pub table_probe_ns: Nanos,
    /// A probe of a table shared by several processors, uncontended (0: free).
    #[serde(default)]
    pub shared_probe_ns: Nanos,
    /// Probes a shared table serves at once; 0: no contention.
    #[serde(default)]
    pub shared_table_ports: u32,
    /// The processor whose memory holds the shared table, where one does (Marsland and Popowich's
    /// global table in the master): its own probes are probes of its own table; `None`: every
    /// processor reaches the shared table alike.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shared_table_home: Option<usize>,
    /// Time the home processor (`shared_table_home`) spends serving one probe of another
    /// processor (taking in its request and update, sending the reply) while it is busy
    /// searching; a home that waits for work serves in its idle time (0: free).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub shared_serve_ns: Nanos,
    /// The largest transposition table (entries per processor, or of the shared table) the
    /// modelled machine had room for; `None`: no limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_table_entries: Option<u64>,
    /// The largest table one processor kept for itself where the machine gave it less room
    /// than `max_table_entries` (entries); `None`: `max_table_entries`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub local_table_entries: Option<u64>,
    /// Time the sender spends on each message.
    pub send_overhead_ns: Nanos,
    /// Time the receiver spends on each message it polls.
    pub recv_overhead_ns: Nanos,
    /// Time a message spends on the wire.
    pub latency_ns: Nanos,
    /// Time the runtime spends handling a message beyond the channel (building or taking in
    /// a request, a piece of work with its problem record, a value, a window update), charged
    /// at the sender and again at the receiver (0: none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub message_handling_ns: Nanos,
    /// Time one 16-bit word of a message spends on the link (0: a message costs the same
    /// whatever its size).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub wire_word_ns: Nanos,
    /// The sender is busy while its message is on the link (programmed I/O without a send
    /// interrupt): the words' link time is charged to the sender and the message arrives
    /// `latency_ns` after the sender is done; otherwise it arrives `latency_ns` plus the words'
    /// link time after the send.
    #[serde(default, skip_serializing_if = "is_false")]
    pub sender_waits_for_wire: bool,
    /// The receiver's time per word of a message (an interrupt per received word), on a
    /// processor of relative cost 100; scaled by the receiver's `relative_cost_percent`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub recv_word_ns: Nanos,
    /// Words every message carries besides its content (header, acknowledgement, checksum).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub message_overhead_words: u64,
    /// Relative cost of a node per processor in percent (100 = the base speed; 300 = three
    /// times slower), cycled over the processors; empty means all 100.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub relative_cost_percent: Vec<u32>,
    /// Lines that run slower from some processor count on (Marsland and Popowich's serial lines ran
    /// "at half that speed with the four processor configuration"); `None`: the same at every
    /// count. Applied by [`CostModel::for_procs`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slow_lines: Option<SlowLines>,
    /// How a busy processor notices a message that arrives while it works; `None`: it looks
    /// at its inbox between slices of the runtime's own node quantum (see
    /// [`crate::DibConfig::quantum`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notice: Option<Notice>,
    /// Node costs of one game that differ from the defaults above (by game name).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub games: BTreeMap<String, GameCosts>,
}

/// The machine's lines at `speed_percent` of their speed when it runs `from_procs` processors
/// or more: every time spent on a line (the latency, the per-word link time and a probe of the
/// shared table, a line transfer where `shared_table_home` is set) takes `100 / speed_percent`
/// times as long. In TOML: `slow_lines = { from_procs = 4, speed_percent = 50 }`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SlowLines {
    /// The smallest processor count at which the lines are slower (at least 1).
    pub from_procs: u32,
    /// Their speed in percent of the preset's (1 to 100).
    pub speed_percent: u32,
}

/// How a busy processor of the modelled machine notices an arriving message: a property of
/// the machine and its message layer, in virtual time (see `dib/README.md`, "Noticing
/// messages").
///
/// In TOML: `notice = "interrupt"` or `notice = { poll_ns = 250_000_000 }`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notice {
    /// The message interrupts the work in progress: it is taken in as soon as the node being
    /// searched is done.
    Interrupt,
    /// The processor looks at its inbox every `every_ns` of its own busy time.
    Poll {
        /// The polling period.
        every_ns: Nanos,
    },
}

/// [`Notice`] as written in TOML: the word `interrupt`, or a table `{ poll_ns = N }`.
#[derive(Serialize)]
#[serde(untagged)]
enum NoticeText {
    Word(&'static str),
    Poll { poll_ns: Nanos },
}

const NOTICE_FORMAT: &str = "notice = \"interrupt\" or notice = { poll_ns = N } with N at least 1";

impl<'de> Deserialize<'de> for Notice {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Notice, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Notice;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(NOTICE_FORMAT)
            }
            fn visit_str<E: serde::de::Error>(self, w: &str) -> Result<Notice, E> {
                if w == "interrupt" {
                    Ok(Notice::Interrupt)
                } else {
                    Err(E::custom(format!("notice \"{w}\": use {NOTICE_FORMAT}")))
                }
            }
            fn visit_map<M: serde::de::MapAccess<'de>>(self, mut m: M) -> Result<Notice, M::Error> {
                let mut poll = None;
                while let Some(key) = m.next_key::<String>()? {
                    if key != "poll_ns" || poll.is_some() {
                        return Err(serde::de::Error::custom(format!(
                            "notice key '{key}': use {NOTICE_FORMAT}"
                        )));
                    }
                    poll = Some(m.next_value::<Nanos>()?);
                }
                match poll {
                    Some(every_ns) if every_ns > 0 => Ok(Notice::Poll { every_ns }),
                    _ => Err(serde::de::Error::custom(format!("use {NOTICE_FORMAT}"))),
                }
            }
        }
        d.deserialize_any(Visit)
    }
}

impl Serialize for Notice {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self {
            Notice::Interrupt => NoticeText::Word("interrupt"),
            Notice::Poll { every_ns } => NoticeText::Poll { poll_ns: every_ns },
        }
        .serialize(s)
    }
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Notice::Interrupt => write!(f, "interrupt"),
            Notice::Poll { every_ns } => write!(f, "poll every {every_ns} ns"),
        }
    }
}

/// A game's own node costs in a preset (`[games.NAME]`); what is missing keeps the default.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameCosts {
    /// A full search node.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_ns: Option<Nanos>,
    /// A horizon leaf.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub horizon_ns: Option<Nanos>,
    /// A quiescence node.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quiescence_ns: Option<Nanos>,
    /// A static-evaluation node.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub static_eval_ns: Option<Nanos>,
    /// A node of control overhead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub control_ns: Option<Nanos>,
    /// A frame of the split engine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame_ns: Option<Nanos>,
    /// A probe of the processor's own table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table_probe_ns: Option<Nanos>,
}

fn is_zero(n: &Nanos) -> bool {
    *n == 0
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_false(b: &bool) -> bool {
    !*b
}

/// The bytes of a 16-bit word: a message's content of `n` bytes is `n.div_ceil(WORD_BYTES)`
/// words.
pub const WORD_BYTES: u64 = 2;

/// `(name, text of dib/presets/<name>.toml)` for each name: the file is named by the preset,
/// so the two cannot disagree.
macro_rules! presets {
    ($($name:literal),* $(,)?) => {
        [$(($name, include_str!(concat!("../../../presets/", $name, ".toml")))),*]
    };
}

/// The built-in presets, name and TOML text, in the order `runner list` shows them: the one
/// list of the presets ([`preset_names`], the error for an unknown name and the command-line
/// help follow it). A test checks that it holds every file of `dib/presets`.
const PRESETS: &[(&str, &str)] = &presets![
    "shared-memory",
    "sequent",
    "origin2000",
    "sun4-pvm",
    "pdp11",
    "sun68k",
];

/// The names of the built-in presets ([`CostModel::preset`]), in their order.
pub fn preset_names() -> impl ExactSizeIterator<Item = &'static str> + Clone {
    PRESETS.iter().map(|(name, _)| *name)
}

/// The preset names as a comma-separated list, for messages and help.
#[must_use]
pub fn preset_list() -> String {
    preset_names().collect::<Vec<_>>().join(", ")
}

/// The numeric keys of a cost model that [`CostModel::with_setting`] sets: every per-node,
/// per-probe, per-message and per-word cost, the shared table's ports and home processor, the
/// table limits, and `poll_ns` (the [`Notice`]: poll every N ns, or 0 for an interrupt).
pub const SETTABLE_KEYS: [&str; 21] = [
    "node_ns",
    "horizon_ns",
    "quiescence_ns",
    "static_eval_ns",
    "control_ns",
    "frame_ns",
    "message_handling_ns",
    "poll_ns",
    "table_probe_ns",
    "shared_probe_ns",
    "shared_table_ports",
    "shared_table_home",
    "shared_serve_ns",
    "max_table_entries",
    "local_table_entries",
    "send_overhead_ns",
    "recv_overhead_ns",
    "latency_ns",
    "wire_word_ns",
    "recv_word_ns",
    "message_overhead_words",
];

/// A cost-model file that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PresetError {
    /// Not valid TOML, or a key that is unknown, missing or of the wrong type (where, and
    /// what is wrong).
    #[error("bad cost model: {0}")]
    Parse(TomlError),
    /// A value that makes no sense.
    #[error("bad cost model: {0}")]
    Invalid(String),
}

impl CostModel {
    /// The built-in preset `name` (see [`preset_names`]).
    ///
    /// # Errors
    /// [`UnknownName`] for any other name; its list of names says a .toml file is taken too.
    pub fn preset(name: &str) -> Result<CostModel, UnknownName> {
        let (_, text) = PRESETS
            .iter()
            .find(|(n, _)| *n == name)
            .ok_or_else(|| UnknownName {
                what: "simulator preset",
                given: name.to_string(),
                valid: format!("{} (or give a .toml file)", preset_list()).into(),
            })?;
        // The built-in files are checked by the tests below.
        Ok(CostModel::from_toml(text).unwrap_or_else(|e| panic!("preset {name}: {e}")))
    }

    /// Reads a cost model from TOML text (the format of `dib/presets/*.toml`).
    ///
    /// # Errors
    /// [`PresetError`] naming the bad key or value.
    pub fn from_toml(text: &str) -> Result<CostModel, PresetError> {
        let model: CostModel =
            toml::from_str(text).map_err(|e| PresetError::Parse(TomlError::new(text, &e)))?;
        model.check()?;
        Ok(model)
    }

    /// The model as TOML (what [`CostModel::from_toml`] reads back).
    #[must_use]
    pub fn to_toml(&self) -> String {
        toml::to_string(self).unwrap_or_default()
    }

    /// The model with one numeric key set to `value` (`--sim-set KEY=VALUE`): a key of
    /// [`SETTABLE_KEYS`], checked as the TOML file would be (a count too large for its field,
    /// or a value that makes the model invalid, is refused).
    ///
    /// # Errors
    /// [`PresetError::Invalid`] naming an unknown key or a value out of range.
    pub fn with_setting(&self, key: &str, value: u64) -> Result<CostModel, PresetError> {
        if !SETTABLE_KEYS.contains(&key) {
            return Err(PresetError::Invalid(format!(
                "'{key}' is not a numeric cost-model key; use one of: {}",
                SETTABLE_KEYS.join(", ")
            )));
        }
        let own = self.to_toml();
        let mut table: toml::Table =
            toml::from_str(&own).map_err(|e| PresetError::Parse(TomlError::new(&own, &e)))?;
        let v = i64::try_from(value)
            .map_err(|_| PresetError::Invalid(format!("{key} = {value} is too large")))?;
        if key == "poll_ns" {
            let notice = if v == 0 {
                toml::Value::String("interrupt".into())
            } else {
                toml::Value::Table(toml::Table::from_iter([(
                    "poll_ns".to_string(),
                    toml::Value::Integer(v),
                )]))
            };
            table.insert("notice".to_string(), notice);
        } else {
            table.insert(key.to_string(), toml::Value::Integer(v));
        }
        let model: CostModel = table.try_into().map_err(|e: toml::de::Error| {
            PresetError::Invalid(format!("{key} = {value}: {}", one_line(e.message())))
        })?;
        model.check()?;
        Ok(model)
    }

    fn check(&self) -> Result<(), PresetError> {
        if self.node_ns == 0 {
            return Err(PresetError::Invalid(
                "node_ns must be at least 1 (nanoseconds per search node)".into(),
            ));
        }
        if self.relative_cost_percent.contains(&0) {
            return Err(PresetError::Invalid(
                "relative_cost_percent entries must be at least 1".into(),
            ));
        }
        if let Some(l) = self.slow_lines {
            if l.from_procs == 0 || !(1..=100).contains(&l.speed_percent) {
                return Err(PresetError::Invalid(format!(
                    "slow_lines = {{ from_procs = {}, speed_percent = {} }}: from_procs must be \
                     at least 1 and speed_percent 1 to 100",
                    l.from_procs, l.speed_percent
                )));
            }
        }
        if self.shared_serve_ns > 0 && self.shared_table_home.is_none() {
            return Err(PresetError::Invalid(
                "shared_serve_ns needs a shared_table_home (the processor that serves the probes)"
                    .into(),
            ));
        }
        if self.shared_probe_ns == 0 && self.shared_table_ports > 0 {
            return Err(PresetError::Invalid(
                "shared_table_ports needs a shared_probe_ns above 0".into(),
            ));
        }
        Ok(())
    }

    /// A shared-memory multiprocessor of the late 1980s with round numbers (10 µs per node,
    /// messages 5 µs + 5 µs + 2 µs): the preset every earlier result was measured with.
    #[must_use]
    pub fn shared_memory() -> CostModel {
        CostModel::preset("shared-memory").unwrap_or_else(|e| panic!("{e}"))
    }

    /// Brockington and Schaeffer's network of SUN 4 workstations on Ethernet, PVM messages.
    #[must_use]
    pub fn sun4_pvm() -> CostModel {
        CostModel::preset("sun4-pvm").unwrap_or_else(|e| panic!("{e}"))
    }

    /// The two-PDP-11 thesis's PDP-11/45 and 1.8 times slower PDP-11/20 on a parallel link that
    /// moves a message a word at a time.
    #[must_use]
    pub fn pdp11() -> CostModel {
        CostModel::preset("pdp11").unwrap_or_else(|e| panic!("{e}"))
    }

    /// The model with `game`'s own node costs (its `[games.NAME]` section) in place of the
    /// defaults; unchanged when the preset has no section for it.
    #[must_use]
    pub fn for_game(&self, game: &str) -> CostModel {
        let Some(g) = self.games.get(game) else {
            return self.clone();
        };
        CostModel {
            node_ns: g.node_ns.unwrap_or(self.node_ns),
            horizon_ns: g.horizon_ns.or(self.horizon_ns),
            quiescence_ns: g.quiescence_ns.or(self.quiescence_ns),
            static_eval_ns: g.static_eval_ns.or(self.static_eval_ns),
            control_ns: g.control_ns.or(self.control_ns),
            frame_ns: g.frame_ns.or(self.frame_ns),
            table_probe_ns: g.table_probe_ns.unwrap_or(self.table_probe_ns),
            ..self.clone()
        }
    }

    /// The model of a run on `procs` processors: its lines slowed where [`SlowLines`] says so,
    /// otherwise unchanged.
    #[must_use]
    pub fn for_procs(&self, procs: usize) -> CostModel {
        match self.slow_lines {
            Some(l) if procs >= l.from_procs as usize => {
                let slow = |ns: Nanos| ns.saturating_mul(100) / u64::from(l.speed_percent);
                CostModel {
                    latency_ns: slow(self.latency_ns),
                    wire_word_ns: slow(self.wire_word_ns),
                    shared_probe_ns: if self.shared_table_home.is_some() {
                        slow(self.shared_probe_ns)
                    } else {
                        self.shared_probe_ns
                    },
                    ..self.clone()
                }
            }
            _ => self.clone(),
        }
    }

    fn percent(&self, id: ProcId) -> u64 {
        if self.relative_cost_percent.is_empty() {
            100
        } else {
            u64::from(self.relative_cost_percent[id % self.relative_cost_percent.len()])
        }
    }

    /// How many full search nodes processor `id` searches in `ns` (at least 1), each at the
    /// dearer of a search node and a horizon leaf.
    #[must_use]
    pub fn nodes_within(&self, id: ProcId, ns: Nanos) -> u64 {
        let node = self.node_ns.max(self.horizon_ns.unwrap_or(0));
        let per_node = node.saturating_mul(self.percent(id)) / 100;
        (ns / per_node.max(1)).max(1)
    }

    /// The virtual time of `nodes` full search nodes on processor `id`.
    #[must_use]
    pub fn nodes_ns(&self, id: ProcId, nodes: u64) -> Nanos {
        nodes
            .saturating_mul(self.node_ns)
            .saturating_mul(self.percent(id))
            / 100
    }

    /// What one probe of a shared table costs while `users` processors use it at once.
    #[must_use]
    pub fn shared_probe_cost(&self, users: u64) -> Nanos {
        let ports = u64::from(self.shared_table_ports);
        if ports == 0 || users <= ports {
            self.shared_probe_ns
        } else {
            self.shared_probe_ns.saturating_mul(users) / ports
        }
    }

    /// The virtual time of `work` on processor `id` while `shared_users` processors (this one
    /// included) use the shared table.
    #[must_use]
    pub fn work_ns(&self, id: ProcId, work: &Work, shared_users: u64) -> Nanos {
        let h = self.horizon_ns.unwrap_or(self.node_ns);
        let q = self.quiescence_ns.unwrap_or(self.node_ns);
        let s = self.static_eval_ns.unwrap_or(self.node_ns);
        let c = self.control_ns.unwrap_or(self.node_ns);
        let f = self.frame_ns.unwrap_or(self.node_ns);
        let nodes = work
            .search
            .saturating_mul(self.node_ns)
            .saturating_add(work.horizon.saturating_mul(h))
            .saturating_add(work.quiescence.saturating_mul(q))
            .saturating_add(work.static_eval.saturating_mul(s))
            .saturating_add(work.control.saturating_mul(c))
            .saturating_add(work.frames.saturating_mul(f))
            .saturating_add(work.library.saturating_mul(self.node_ns));
        (nodes.saturating_mul(self.percent(id)) / 100)
            .saturating_add(work.table_probes.saturating_mul(self.table_probe_ns))
            .saturating_add(
                work.shared_probes
                    .saturating_mul(self.shared_probe_cost(shared_users)),
            )
    }

    /// What sending a message without content costs the sender (see
    /// [`CostModel::send_msg_ns`]).
    #[must_use]
    pub fn send_ns(&self) -> Nanos {
        self.send_msg_ns(0)
    }

    /// What taking in a message without content costs processor 0 (see
    /// [`CostModel::recv_msg_ns`]).
    #[must_use]
    pub fn recv_ns(&self) -> Nanos {
        self.recv_msg_ns(0, 0)
    }

    /// Whether a message's cost depends on its size (some per-word cost is set); the
    /// simulator measures messages only then.
    #[must_use]
    pub fn sized_messages(&self) -> bool {
        self.wire_word_ns > 0 || self.recv_word_ns > 0
    }

    /// The words on the link of a message with `content` words of content.
    #[must_use]
    pub fn message_words(&self, content: u64) -> u64 {
        content.saturating_add(self.message_overhead_words)
    }

    /// What sending a message of `content` words costs the sender: the channel's overhead,
    /// the runtime's handling and, when the sender waits for the link, the words' link time.
    #[must_use]
    pub fn send_msg_ns(&self, content: u64) -> Nanos {
        let waiting = if self.sender_waits_for_wire {
            self.message_words(content)
                .saturating_mul(self.wire_word_ns)
        } else {
            0
        };
        self.send_overhead_ns
            .saturating_add(self.message_handling_ns)
            .saturating_add(waiting)
    }

    /// The time from the end of a send of `content` words to the message's arrival: the
    /// latency and, unless the sender already waited for it, the words' link time.
    #[must_use]
    pub fn wire_ns(&self, content: u64) -> Nanos {
        let words = if self.sender_waits_for_wire {
            0
        } else {
            self.message_words(content)
                .saturating_mul(self.wire_word_ns)
        };
        self.latency_ns.saturating_add(words)
    }

    /// What taking in a message of `content` words costs processor `id`: the channel's
    /// overhead, the runtime's handling and the per-word receive cost at its relative speed.
    #[must_use]
    pub fn recv_msg_ns(&self, id: ProcId, content: u64) -> Nanos {
        let words = self
            .message_words(content)
            .saturating_mul(self.recv_word_ns)
            .saturating_mul(self.percent(id))
            / 100;
        self.recv_overhead_ns
            .saturating_add(self.message_handling_ns)
            .saturating_add(words)
    }

    /// The largest table in MiB that holds at most [`CostModel::max_table_entries`] entries
    /// of `entry_bytes` bytes (at least 1), or `None` without a limit.
    #[must_use]
    pub fn max_table_mib(&self, entry_bytes: u64) -> Option<usize> {
        let entries = self.max_table_entries?;
        let mib = entries.saturating_mul(entry_bytes) >> 20;
        Some(usize::try_from(mib.max(1)).unwrap_or(usize::MAX))
    }
}

impl FromStr for CostModel {
    type Err = UnknownName;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        CostModel::preset(name)
    }
}

impl fmt::Display for CostModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (node {} ns, o_send {} ns, o_recv {} ns, L {} ns",
            self.name, self.node_ns, self.send_overhead_ns, self.recv_overhead_ns, self.latency_ns
        )?;
        if self.message_handling_ns > 0 {
            write!(f, ", handling {} ns", self.message_handling_ns)?;
        }
        if self.sized_messages() {
            write!(
                f,
                ", link {} ns/word{}, receive {} ns/word, {} overhead words",
                self.wire_word_ns,
                if self.sender_waits_for_wire {
                    " (sender waits)"
                } else {
                    ""
                },
                self.recv_word_ns,
                self.message_overhead_words
            )?;
        }
        if self.shared_probe_ns > 0 {
            write!(
                f,
                ", shared probe {} ns x {} ports",
                self.shared_probe_ns, self.shared_table_ports
            )?;
            if let Some(home) = self.shared_table_home {
                write!(
                    f,
                    " in processor {home} ({} ns to serve one)",
                    self.shared_serve_ns
                )?;
            }
        }
        if let Some(l) = self.slow_lines {
            write!(
                f,
                ", lines at {} % from {} processors",
                l.speed_percent, l.from_procs
            )?;
        }
        if let Some(n) = self.notice {
            write!(f, ", {n}")?;
        }
        write!(f, ")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slow_lines_slow_the_lines_from_their_processor_count() {
        let m = CostModel::preset("sun68k").expect("preset");
        let l = m
            .slow_lines
            .expect("sun68k's lines slow down at 4 processors");
        assert_eq!((l.from_procs, l.speed_percent), (4, 50));
        assert_eq!(m.for_procs(3), m);
        let four = m.for_procs(4);
        assert_eq!(four.latency_ns, 2 * m.latency_ns);
        assert_eq!(four.shared_probe_ns, 2 * m.shared_probe_ns);
        assert_eq!(four.send_overhead_ns, m.send_overhead_ns);
        assert_eq!(four.horizon_ns, m.horizon_ns);
        // Without a home the shared table is memory, not a line.
        let o = CostModel::preset("origin2000").expect("preset");
        let mut slowed = o.clone();
        slowed.slow_lines = Some(SlowLines {
            from_procs: 2,
            speed_percent: 25,
        });
        let at2 = slowed.for_procs(2);
        assert_eq!(at2.latency_ns, 4 * o.latency_ns);
        assert_eq!(at2.shared_probe_ns, o.shared_probe_ns);
        for bad in [
            "slow_lines = { from_procs = 0, speed_percent = 50 }",
            "slow_lines = { from_procs = 4, speed_percent = 0 }",
            "slow_lines = { from_procs = 4, speed_percent = 101 }",
        ] {
            let text = format!(
                "name = \"x\"\nnode_ns = 1\nsend_overhead_ns = 0\nrecv_overhead_ns = 0\nlatency_ns = 0\n{bad}\n"
            );
            assert!(CostModel::from_toml(&text).is_err(), "{bad}");
        }
    }

    #[test]
    fn presets_parse_and_slow_processors_cost_more() {
        for name in preset_names() {
            assert_eq!(
                name.parse::<CostModel>().map(|c| c.name),
                Ok(name.to_string())
            );
        }
        let err = "cray".parse::<CostModel>().unwrap_err().to_string();
        assert!(err.contains(&preset_list()), "{err}");
        let p = CostModel::pdp11();
        assert_eq!(10 * p.nodes_ns(1, 10), 18 * p.nodes_ns(0, 10));
    }

    #[test]
    fn shared_memory_keeps_its_round_numbers() {
        let c = CostModel::shared_memory();
        assert_eq!(
            (
                c.node_ns,
                c.send_overhead_ns,
                c.recv_overhead_ns,
                c.latency_ns
            ),
            (10_000, 5_000, 5_000, 2_000)
        );
        // Every node kind costs a node, probes are free: the results measured before node
        // kinds existed are reproduced.
        let w = Work {
            search: 3,
            horizon: 6,
            quiescence: 2,
            static_eval: 4,
            control: 1,
            frames: 5,
            table_probes: 50,
            shared_probes: 70,
            library: 0,
        };
        assert_eq!(c.work_ns(0, &w, 64), c.nodes_ns(0, 21));
        // No handling cost beyond the channel's overheads.
        assert_eq!((c.send_ns(), c.recv_ns()), (5_000, 5_000));
    }

    #[test]
    fn each_kind_is_charged_its_own_cost() {
        let c = CostModel::from_toml(
            "name = \"t\"\nnode_ns = 100\nhorizon_ns = 55\nquiescence_ns = 30\nstatic_eval_ns = 7\n\
             control_ns = 1000\nframe_ns = 640\ntable_probe_ns = 2\nsend_overhead_ns = 0\n\
             recv_overhead_ns = 0\nlatency_ns = 0\n",
        )
        .expect("valid");
        let one = |w: Work| c.work_ns(0, &w, 1);
        assert_eq!(one(Work::search(1)), 100);
        assert_eq!(
            one(Work {
                horizon: 2,
                ..Work::default()
            }),
            110
        );
        assert_eq!(
            one(Work {
                quiescence: 1,
                ..Work::default()
            }),
            30
        );
        assert_eq!(
            one(Work {
                static_eval: 1,
                ..Work::default()
            }),
            7
        );
        assert_eq!(
            one(Work {
                control: 1,
                ..Work::default()
            }),
            1000
        );
        assert_eq!(
            one(Work {
                frames: 2,
                ..Work::default()
            }),
            1280
        );
        assert_eq!(
            one(Work {
                table_probes: 5,
                ..Work::default()
            }),
            10
        );
        // Library work is priced as full search nodes, whatever the other kinds cost.
        assert_eq!(
            one(Work {
                library: 3,
                ..Work::default()
            }),
            300
        );
    }

    #[test]
    fn a_message_costs_its_handling_at_each_end() {
        let c = CostModel::from_toml(
            "name = \"t\"\nnode_ns = 100\nsend_overhead_ns = 20\nrecv_overhead_ns = 15\n\
             latency_ns = 300\nmessage_handling_ns = 700\n",
        )
        .expect("valid");
        assert_eq!((c.send_ns(), c.recv_ns()), (720, 715));
        assert!(c.to_string().contains("handling 700 ns"), "{c}");
        assert_eq!(CostModel::from_toml(&c.to_toml()), Ok(c));
    }

    #[test]
    fn a_message_costs_its_words_on_the_link_and_at_the_receiver() {
        let c = CostModel::from_toml(
            "name = \"t\"\nnode_ns = 100\nsend_overhead_ns = 20\nrecv_overhead_ns = 15\n\
             latency_ns = 300\nwire_word_ns = 34000\nsender_waits_for_wire = true\n\
             recv_word_ns = 25000\nmessage_overhead_words = 3\nrelative_cost_percent = [100, 180]\n",
        )
        .expect("valid");
        assert!(c.sized_messages());
        // Five words of content and three of overhead.
        assert_eq!(c.send_msg_ns(5), 20 + 8 * 34_000);
        assert_eq!(c.wire_ns(5), 300);
        assert_eq!(c.recv_msg_ns(0, 5), 15 + 8 * 25_000);
        assert_eq!(c.recv_msg_ns(1, 5), 15 + 8 * 45_000);
        // An empty message still has its overhead words.
        assert_eq!(
            (c.send_ns(), c.recv_ns()),
            (20 + 3 * 34_000, 15 + 3 * 25_000)
        );
        let flying = CostModel {
            sender_waits_for_wire: false,
            ..c.clone()
        };
        assert_eq!(flying.send_msg_ns(5), 20);
        assert_eq!(flying.wire_ns(5), 300 + 8 * 34_000);
        assert!(c.to_string().contains("34000 ns/word"), "{c}");
        assert_eq!(CostModel::from_toml(&c.to_toml()), Ok(c));
        // Without per-word costs a message costs the same whatever its size.
        for name in preset_names().filter(|n| *n != "pdp11") {
            let p = CostModel::preset(name).expect("preset");
            assert!(!p.sized_messages(), "{name}");
            assert_eq!(p.send_msg_ns(1000), p.send_ns(), "{name}");
            assert_eq!(p.recv_msg_ns(1, 1000), p.recv_ns(), "{name}");
            assert_eq!(p.wire_ns(1000), p.latency_ns, "{name}");
        }
    }

    #[test]
    fn a_shared_probe_costs_more_once_users_exceed_the_ports() {
        let c = CostModel {
            shared_probe_ns: 800,
            shared_table_ports: 32,
            ..CostModel::shared_memory()
        };
        assert_eq!(c.shared_probe_cost(1), 800);
        assert_eq!(c.shared_probe_cost(32), 800);
        assert_eq!(c.shared_probe_cost(64), 1600);
        assert_eq!(c.shared_probe_cost(48), 1200);
        let probes = Work {
            shared_probes: 10,
            ..Work::default()
        };
        assert_eq!(c.work_ns(0, &probes, 64), 16_000);
        let free = CostModel {
            shared_table_ports: 0,
            ..c
        };
        assert_eq!(free.shared_probe_cost(1000), 800);
    }

    #[test]
    fn a_game_section_overrides_the_node_costs() {
        let c = CostModel::from_toml(
            "name = \"t\"\nnode_ns = 100\nsend_overhead_ns = 1\nrecv_overhead_ns = 1\n\
             latency_ns = 1\n[games.chess]\nnode_ns = 400\nquiescence_ns = 250\nframe_ns = 900\n",
        )
        .expect("valid");
        let chess = c.for_game("chess");
        assert_eq!((chess.node_ns, chess.quiescence_ns), (400, Some(250)));
        assert_eq!(
            chess.work_ns(
                0,
                &Work {
                    frames: 1,
                    ..Work::default()
                },
                1
            ),
            900
        );
        assert_eq!(c.for_game("othello").frame_ns, None);
        assert_eq!(c.for_game("othello").node_ns, 100);
    }

    #[test]
    fn toml_round_trips_and_bad_keys_are_named() {
        for name in preset_names() {
            let c = CostModel::preset(name).expect("preset");
            assert_eq!(CostModel::from_toml(&c.to_toml()), Ok(c));
        }
        let err = CostModel::from_toml("name = \"t\"\nnode_nss = 1\n").unwrap_err();
        assert!(err.to_string().contains("node_nss"), "{err}");
        let err = CostModel::from_toml(
            "name = \"t\"\nnode_ns = 0\nsend_overhead_ns = 1\nrecv_overhead_ns = 1\nlatency_ns = 1\n",
        )
        .unwrap_err();
        assert!(err.to_string().contains("node_ns"), "{err}");
    }

    #[test]
    fn the_notice_reads_as_a_word_or_a_period() {
        let base = "name = \"t\"\nnode_ns = 10\nsend_overhead_ns = 1\nrecv_overhead_ns = 1\nlatency_ns = 1\n";
        let read = |extra: &str| CostModel::from_toml(&format!("{base}{extra}"));
        assert_eq!(read("").map(|c| c.notice), Ok(None));
        let i = read("notice = \"interrupt\"\n").expect("interrupt");
        assert_eq!(i.notice, Some(Notice::Interrupt));
        let p = read("notice = { poll_ns = 1_000 }\n").expect("poll");
        assert_eq!(p.notice, Some(Notice::Poll { every_ns: 1_000 }));
        for c in [i, p] {
            assert_eq!(
                CostModel::from_toml(&c.to_toml()),
                Ok(c.clone()),
                "{}",
                c.to_toml()
            );
        }
        for bad in [
            "notice = \"poll\"\n",
            "notice = { poll_ns = 0 }\n",
            "notice = 3\n",
        ] {
            let err = read(bad).unwrap_err().to_string();
            assert!(err.contains("notice"), "{bad}: {err}");
        }
    }

    #[test]
    fn nodes_within_a_time_follow_the_processors_speed() {
        let p = CostModel {
            relative_cost_percent: vec![100, 300],
            ..CostModel::shared_memory()
        };
        assert_eq!(p.nodes_within(0, 1_000_000), 100);
        assert_eq!(p.nodes_within(1, 1_000_000), 33);
        assert_eq!(p.nodes_within(1, 5), 1, "at least one node");
    }

    #[test]
    fn the_table_limit_is_a_size_in_mib() {
        let o = CostModel::preset("origin2000").expect("preset");
        assert_eq!(o.max_table_mib(16), Some(256));
        assert_eq!(CostModel::shared_memory().max_table_mib(16), None);
    }

    #[test]
    fn one_key_is_set_typed_and_checked() {
        let o = CostModel::preset("origin2000").expect("preset");
        let eight = o.with_setting("shared_table_ports", 8).expect("valid");
        assert_eq!(eight.shared_table_ports, 8);
        assert_eq!(eight.shared_probe_cost(64), 4 * o.shared_probe_cost(64));
        assert_eq!(
            CostModel {
                shared_table_ports: 32,
                ..eight.clone()
            },
            o
        );
        let q = o.with_setting("quiescence_ns", 3000).expect("valid");
        assert_eq!(q.quiescence_ns, Some(3000));
        let f = o.with_setting("frame_ns", 4000).expect("valid");
        assert_eq!(f.frame_ns, Some(4000));
        let h = o.with_setting("message_handling_ns", 9).expect("valid");
        assert_eq!(h.message_handling_ns, 9);
        let p = o.with_setting("poll_ns", 250_000).expect("valid");
        assert_eq!(p.notice, Some(Notice::Poll { every_ns: 250_000 }));
        let i = p.with_setting("poll_ns", 0).expect("valid");
        assert_eq!(i.notice, Some(Notice::Interrupt));
        for (key, value, named) in [
            ("node_nss", 1, "node_nss"),
            ("name", 1, "name"),
            ("node_ns", 0, "node_ns"),
            (
                "shared_table_ports",
                u64::from(u32::MAX) + 1,
                "shared_table_ports",
            ),
            ("latency_ns", u64::MAX, "latency_ns"),
        ] {
            let err = o.with_setting(key, value).unwrap_err();
            assert!(err.to_string().contains(named), "{key}={value}: {err}");
        }
    }

    /// The built-in presets are the files of `dib/presets`: every `.toml` file there is one
    /// (its name the file's stem), and each preset's text is its file's.
    #[test]
    fn every_preset_file_is_a_preset_and_every_preset_a_file() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("presets");
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .expect("dib/presets is readable")
            .map(|e| e.expect("a directory entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .map(|p| {
                p.file_stem()
                    .and_then(|s| s.to_str())
                    .expect("a UTF-8 file name")
                    .to_string()
            })
            .collect();
        files.sort();
        let mut names: Vec<&str> = preset_names().collect();
        names.sort_unstable();
        assert_eq!(files, names);
        for (name, text) in PRESETS {
            let file = std::fs::read_to_string(dir.join(format!("{name}.toml"))).expect(name);
            assert_eq!(file, *text, "{name}");
        }
    }

    /// Every number of the model's TOML is a key of [`SETTABLE_KEYS`], and setting it changes
    /// that number alone. The model is written out field by field (no `..`), so a new field
    /// does not compile here until it is given a value, and a new number fails until it is
    /// settable.
    #[test]
    fn every_number_of_the_model_is_settable() {
        let full = CostModel {
            name: "full".into(),
            about: "every field set".into(),
            node_ns: 1000,
            horizon_ns: Some(1001),
            quiescence_ns: Some(1002),
            static_eval_ns: Some(1003),
            control_ns: Some(1004),
            frame_ns: Some(1005),
            table_probe_ns: 1006,
            shared_probe_ns: 1007,
            shared_table_ports: 8,
            shared_table_home: Some(0),
            shared_serve_ns: 1008,
            max_table_entries: Some(1 << 20),
            local_table_entries: Some(1 << 19),
            send_overhead_ns: 1009,
            recv_overhead_ns: 1010,
            latency_ns: 1011,
            message_handling_ns: 1012,
            wire_word_ns: 1013,
            sender_waits_for_wire: true,
            recv_word_ns: 1014,
            message_overhead_words: 3,
            relative_cost_percent: vec![100, 180],
            slow_lines: Some(SlowLines {
                from_procs: 4,
                speed_percent: 50,
            }),
            notice: Some(Notice::Poll { every_ns: 1015 }),
            games: BTreeMap::from([("chess".to_string(), GameCosts::default())]),
        };
        let table: toml::Table = toml::from_str(&full.to_toml()).expect("the model's TOML");
        let numbers: Vec<(&String, i64)> = table
            .iter()
            .filter_map(|(k, v)| v.as_integer().map(|n| (k, n)))
            .collect();
        assert!(numbers.len() >= 20, "{numbers:?}");
        for (key, value) in numbers {
            assert!(
                SETTABLE_KEYS.contains(&key.as_str()),
                "{key} is not settable"
            );
            let set = full
                .with_setting(key, value.unsigned_abs() + 1)
                .unwrap_or_else(|e| panic!("{key}: {e}"));
            let mut expected = table.clone();
            expected.insert(key.clone(), toml::Value::Integer(value + 1));
            let got: toml::Table = toml::from_str(&set.to_toml()).expect("TOML");
            assert_eq!(got, expected, "{key}");
        }
        let poll = full.with_setting("poll_ns", 7).expect("poll_ns");
        assert_eq!(poll.notice, Some(Notice::Poll { every_ns: 7 }));
    }
}
