//! The skeleton of a new rules system (`muster new system`): every section of
//! `RulesSystem` and of its `rules` block, each under a one-line comment saying what it
//! is for. Required sections hold a small valid value whose guessed lines carry
//! [`PLACEHOLDER_MARK`](super::PLACEHOLDER_MARK); optional ones are examples behind
//! [`EXAMPLE_MARK`](super::EXAMPLE_MARK), valid together once uncommented.

use super::{check_id, quoted, title};

/// The text of `NAME.system.ron` for system `id`.
pub fn system(id: &str) -> Result<String, String> {
    check_id(id)?;
    Ok(SYSTEM
        .replace("{ID}", &quoted(id))
        .replace("{NAME}", &quoted(&title(id)))
        .replace("{TITLE}", &title(id)))
}

const SYSTEM: &str = r#"// {TITLE}: a rules system skeleton written by `muster new system`.
//
// Sections the file needs hold a small value that validates; every value muster had to
// guess ends with `// muster: placeholder`, and `template::placeholder` warns until you
// put the rulebook's value and delete the comment. Optional sections are examples: a
// line starting `//~ ` is an example line; delete those four characters to use it (the
// examples validate together; some name another example's table, level or phase), then
// adapt it to the rulebook.
// `muster schema system` prints every field; the bundled systems are complete examples.
System(
    // The id scenarios, maps and counter sheets use to name this system.
    id: {ID},
    // The system's name as the rulebook gives it.
    name: {NAME}, // muster: placeholder
    // Where the rules come from: title, publisher, edition.
    //~ source: Some("the rulebook's title, publisher and edition"),
    // The playing surface: a hex grid and its column layout, or an open table.
    grid: Hex(layout: EvenColumnsDown), // muster: placeholder
    // The kinds of unit the counters show, and the role each plays in a hex.
    unit_kinds: [
        (id: "infantry", name: "Infantry", role: Combat), // muster: placeholder
        (id: "cavalry", name: "Cavalry", role: Combat, mounted: true), // muster: placeholder
        // A tag names kinds for a rule beside their id and class (`Troop("elite")`).
        //~ (id: "guard", name: "Guard", role: Combat, tags: ["elite"]),
        (id: "commander", name: "Commander", role: Commander), // muster: placeholder
    ],
    // The terrain effects chart: what entering each kind of hex costs and does.
    terrain: [
        (id: "clear", name: "Clear", movement: Points(1.0)), // muster: placeholder
        (id: "woods", name: "Woods", movement: Points(2.0), combat: [DieModifier(1)]), // muster: placeholder
    ],
    // Features drawn on hexsides (rivers, roads, bridges) and what crossing them does.
    //~ hexside_features: [
    //~     (id: "stream", name: "Stream", movement: Some(Extra(1.0)), combat: [DieModifier(1)]),
    //~     (id: "road", name: "Road", movement: Some(Points(0.5)), draw: Through),
    //~ ],
    // The section of the rules that gives terrain and hexsides their combat effects,
    // which the engine cites beside each such modifier.
    //~ terrain_section: Some("7"),
    // The section that gives terrain and hexsides their movement costs, which a unit's
    // reach cites.
    //~ movement_section: Some("5"),
    // The combat results table: odds columns, die rows, and what each result code means.
    // Read by differential instead, give `index: Differential` and columns such as
    // ["-1", "0", "+1..+2"].
    //~ combat_results: Some((
    //~     odds: ["1/1", "2/1", "3/1"],
    //~     rows: [
    //~         (die: 1, results: ["DR", "D1", "D1"]),
    //~         (die: 2, results: ["AR", "DR", "D1"]),
    //~     ],
    //~     results: [
    //~         (code: "A", meaning: "attacker"),
    //~         (code: "D", meaning: "defender"),
    //~         (code: "1", meaning: "one step loss"),
    //~         (code: "R", meaning: "retreat one hex"),
    //~     ],
    //~ )),
    // How many units share a hex, and which leaders may ride along with them.
    stacking: UnitsPerHex(
        combat_units: 1, // muster: placeholder
        riders: [(role: Commander, max: 1, may_stand_alone: true)], // muster: placeholder
    ),
    // Army morale: the points lost commanders and baggage add to an army's losses.
    //~ army_morale: Some((commander_bonus: 4, baggage_bonus: 2)),
    // How a force's victory points are counted.
    //~ victory_points: Some(PerFigure),
    // Named victory levels by the ratio of the two sides' victory points.
    //~ victory_levels: [(name: "Marginal", ratio: 1.0, exclusive: true), (name: "Decisive", ratio: 2.0)],
    // Unit kinds that carry others: how many aboard, how many in one hex, and the MP
    // mooring, casting off, boarding and unloading cost (`Carrying`, `Load`, `Moor`
    // and `Unmoor` in rules).
    //~ carriers: [(kind: "cavalry", capacity: 1, per_hex: 1, moor_cost: Some(2.0), unmoor_cost: Some(1.0), board_cost: Some(1.0), unload_cost: Some(1.0))],
    // A miniatures army's break point: what each loss scores against it.
    //~ break_point: Some((camp: 3, army_commander: 3, battle_commander: 2, exceptional: 2, min_bases: 1, max_bases: 6)),
    // The typed rules engines play by and checks reason about; every part is optional.
    rules: (
        // The sequence of play: the phases of a turn in order and who acts in each.
        //~ sequence: Some((
        //~     player_turn: [
        //~         (id: "movement", name: "Movement", acts: [Phasing]),
        //~         (id: "combat", name: "Combat", acts: [Phasing]),
        //~         // A phase only some factions' turns have.
        //~         (id: "rally", name: "Rally", acts: [Phasing], sides: ["red"]),
        //~     ],
        //~ )),
        // The status levels a unit walks down as it suffers results.
        //~ status: Some((
        //~     levels: [
        //~         (id: "full", name: "Full strength"),
        //~         (id: "reduced", name: "Reduced"),
        //~         (id: "eliminated", name: "Eliminated", removes: true),
        //~     ],
        //~ )),
        // Tables read by the difference of a die roll and a value, band by band.
        //~ result_tables: [
        //~     (
        //~         id: "morale-check",
        //~         name: "Morale check",
        //~         by: Difference,
        //~         bands: [(to: Some(0), result: NoEffect), (from: Some(1), result: LoseLevels(1))],
        //~     ),
        //~ ],
        // How combats are organised, each rule with its section: who must attack, how
        // often a unit attacks or is attacked, combined attacks, split strength, advance.
        //~ combat: Some((
        //~     compulsory: Some((section: "7.1", attacks: EveryAdjacentUnit, who: Some(Troop("infantry")))),
        //~     once_per_phase: Some((section: "7.1", each_attacker_once: true, each_defender_once: true)),
        //~     combined: Some((section: "7.2", attackers: true, defenders: MultiHex)),
        //~     split_strength: Some((section: "7.4", allowed: false)),
        //~     advance: Some((section: "8.4", units: Some(1))),
        //~ )),
        // Named force ratios by the larger side's count over the smaller's.
        //~ force_ratios: [(name: "Even", from: 1.0, to: Some(2.0), to_inclusive: true), (name: "Outnumbered", from: 2.0, from_exclusive: true)],
        // The roll that decides whether a leader is lost when his unit loses on a result table
        // (the example names the `morale-check` table above).
        //~ leader_loss: Some((after: ["morale-check"], die: 6, escape_only_from: Some(6), escape_roll: Some(1))),
        // What makes a move a charge: the target's hex, the hexes crossed, a straight line.
        //~ charge: Some((section: "9.2", target_in: ["clear"], through: ["clear"], straight_line: true)),
        // What troop types must, may or may never do; `when` limits an entry to a condition of
        // the vocabulary (`condition` says one in words that no condition can state).
        //~ permissions: [(action: Charge, troops: ["*"], allowed: Never), (action: Charge, troops: ["cavalry"], allowed: May), (action: Charge, troops: ["cavalry"], allowed: Never, when: Some(Opponent(InTerrain("woods"))))],
        // How the terrains of one hex combine when a map adds a feature to it (a village in woods).
        //~ terrain_combine: Some((cost: MostCostly, combat: Strongest)),
        // When morale is tested, who never tests it, and what modifies the test.
        //~ morale: Some((triggers: [(event: DisplacedByRetreat, troops: ["*"])], never_test: ["commander"])),
        // Fire at attackers before a melee.
        //~ defensive_fire: Some((troops: ["infantry"], first_melee_round_modifier: -1)),
        // What blocks line of sight.
        //~ line_of_sight: Some((section: Some("8.1"), units_block: true, blocking: [(terrain: ["woods"], section: Some("8.2"))])),
        // How many men a base or counter stands for.
        //~ representation: Some((mounted: (min: 200, max: 250), foot: (min: 400, max: 500))),
        // How the system's victory levels relate to each other.
        //~ victory_order: Some(HigherSatisfiesLower),
        // What leaving the map costs and whether a unit may come back.
        //~ exit: Some((cost: 1.0, may_return: false, section: Some("10.5"))),
        // Movement rules that hold whatever the allowance.
        //~ movement: Some((minimum_move: Some((hexes: 1, whole_move: true)))),
        // When an army panics, who is spared and how panicked units rally (the example
        // rallies after the `movement` phase of `sequence`); what panicked units do is
        // rules under `Panicked` in `effects`.
        //~ panic: Some((trigger: LossesReachPanicLevel, rally: Some((after_phase: "movement", by: [(leaders: ["commander"], reach: Stacked)])))),
        // The rules vocabulary (`muster list rules`): conditions (`when`) and effects
        // (`then`) for any rule the sections above have no place for.
        // The factions (nationalities) rules name and scenarios' sides belong to.
        //~ factions: [(id: "red", name: "Red"), (id: "blue", name: "Blue")],
        // The kinds of weather a turn may have; a scenario's `turn_record` gives each turn's.
        //~ weather: [(id: "fair", name: "Fair"), (id: "mud", name: "Mud")],
        // Rules stated as conditions and effects (the example reads the weather above).
        //~ effects: [(id: "mud", section: "9.1", when: Weather("mud"), then: [Strength(0.5)]), (id: "woods-defence", section: "7.2", when: All([Defending, InTerrain("woods")]), then: [OddsShift(-1)]), (id: "commander-defends-at-1", section: "9.4", when: All([Defending, Troop("commander")]), then: [FixedStrength(1)]), (id: "reduced-cavalry-slow", section: "9.5", when: All([Troop("cavalry"), Status("reduced")]), then: [MoveAllowance(0.5)]), (id: "commander-falls-with-his-unit", section: "9.4", when: All([Troop("commander"), Defending]), then: [FallsWith(with: ["infantry", "cavalry"], reach: Stacked)]), (id: "cavalry-untempted-by-woods", section: "9.6", when: All([Troop("cavalry"), OpponentIn("woods")]), then: [NoTemptation]), (id: "loser-pushed-back", section: "9.7", when: Event(LostMeleeRound), then: [PushedBack(inches: 1.0, stays_locked: true)]), (id: "devastating-fire", section: "9.8", when: All([Event(Charging), Event(LosesLevels(table: "morale-check", at_least: 1))]), then: [ChargeHalted(short_by: 1.0)]), (id: "out-of-command", section: "9.9", when: Not(InCommand), then: [MoveAllowance(0.5)]), (id: "panicked-flee", section: "9.10", when: Panicked, then: [Flees, MayNot(Attack)])],
        // Named special rules a scenario switches on by id (`special_rules: [(hook: "storm", text: "...")]`).
        //~ special_rules: [(id: "storm", section: "S1", when: Turns(from: 1, to: 2), then: [MayNot(Fire)])],
        // Optional rules: named sets of rules a scenario switches on (`optional_rules: ["veterans"]`).
        //~ optional_rules: [(id: "veterans", name: "Veterans", section: "12", effects: [(id: "veteran-cavalry", section: "12.1", when: Troop("cavalry"), then: [DieModifier(1)])])],
        // muster's built-in special-rule hooks this system's scenarios may use (`muster explain hooks`).
        //~ hooks: ["evasion"],
        // Zones of control: who exerts them, and what entering, leaving and retreating do.
        //~ zones_of_control: Some((section: "8", exerted_by: Some(Not(Troop("commander"))), entry: Stop, leaving: Free, no_retreat_into: true)),
        // Who holds a hex: the side whose units stand in it, and after they leave.
        //~ control: Some((section: "12", kept_when_left: true)),
        // Movement modes beside ordinary movement: who may use them and what they cost.
        //~ movement_modes: [(id: "road-march", name: "Road march", section: "5", who: Some(Troop("infantry")), costs: [(on: "clear", cost: Points(0.5))])],
        // Replacements: what a point buys and where units come back; scenarios give the points.
        //~ replacements: Some((section: "11", buys: [(cost: 1, gives: StepBack)], placed: InPlace)),
        // Supply: how far a trace runs and what blocks it; scenarios give the sources.
        //~ supply: Some((section: "10", trace_length: 5, blocked_by_terrain: ["woods"])),
        // Reinforcements: what coming onto the map costs, and whether they may be held back.
        //~ arrivals: Some((section: "9", entry_cost: 1.0, may_delay: false, blocked: NextTurn)),
        // Facing: which hexsides around a unit are its front or rear (0 is the faced hexside, clockwise).
        //~ facing: Some((section: "13", classes: [(id: "front", name: "Front", hexsides: [5, 0, 1]), (id: "rear", name: "Rear", hexsides: [2, 3, 4])], turn_cost: Some(1.0))),
        // States a unit keeps from one turn to the next (contact), set by acts and cleared by results.
        //~ states: [(id: "engaged", name: "Engaged", section: "14", set_by: [Melee], cleared_by: ["DR"])],
        // Values of this block the rulebook does not print: path -> the reason.
        //~ assumed: {"morale": "the rulebook does not say who tests morale; taken from the examples"},
    ),
    // Facts of the rules kept as data for engines, in your own words.
    //~ notes: ["a rule muster has no field for yet"],
    // Values of this file the rulebook does not print: field -> the reason.
    //~ assumed: {"stacking": "the rulebook does not say; taken from the scenario maps"},
)
"#;
