//! `measure doctor --plan FILE`: what each noise knob buys on this host, measured with the user's own plan.
//!
//! An A/A study: the plan's first condition, run in `--rounds` rounds; each round runs it once under each
//! of four settings (pinning on and off, crossed with a warm-up on and off), in an order shuffled per round
//! with the plan's seed, so a drift of the host falls on every setting alike. Each setting is a dataset of
//! its own in the output folder (`pin-on-warmup-off/`, ...), written by `measure run` and read back with
//! `analyze report` (its `summary.json`), so the value of a run is the plan's headline exactly as a study
//! would report it: requests/s for closed-loop load, else the headline percentile.
//!
//! For each knob, the spread of a setting is the standard deviation of the log values within each of
//! its two cells (the other knob on and off), pooled: sum of squared deviations from each cell's own mean
//! over the summed degrees of freedom, so the other knob's effect on the level does not count as spread.
//! The ratio of spreads off/on has the 95% interval of the variance ratio under normal logs, F(df_off,
//! df_on), square-rooted; an interval that covers 1 is "no measurable effect". The minimum detectable
//! change each setting buys is that of the plan's own comparison, `repetitions` runs a side, a two-sided
//! 5% test at 80% power on the logs: (t(0.975, 2n-2) + t(0.80, 2n-2)) · s · sqrt(2/n), as a percentage
//! change. A normal approximation with the spread as if known: it says how the knobs compare, not the
//! exact power of a later test.

use crate::cli::DoctorArgs;
use crate::input::BadInput;
use crate::plan::command::CommandPlan;
use crate::plan::{Condition, Plan};
use crate::study::StudyEnd;
use anyhow::{bail, Context, Result};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use statrs::distribution::{ContinuousCDF, FisherSnedecor, StudentsT};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// Fewest rounds: two runs a setting are needed for any spread.
pub const MIN_ROUNDS: u32 = 2;
/// Most rounds.
pub const MAX_ROUNDS: u32 = 100;

/// One of the four settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Setting {
    pub pin: bool,
    pub warmup: bool,
}

impl Setting {
    /// The four settings, in the order the tables list them.
    pub const ALL: [Setting; 4] = [
        Setting { pin: false, warmup: false },
        Setting { pin: true, warmup: false },
        Setting { pin: false, warmup: true },
        Setting { pin: true, warmup: true },
    ];

    /// The setting's folder in the output: `pin-on-warmup-off`.
    pub fn folder(self) -> String {
        let on = |b: bool| if b { "on" } else { "off" };
        format!("pin-{}-warmup-{}", on(self.pin), on(self.warmup))
    }
}

/// The warm-up the "on" settings run: the plan's own, else one this module picks for the tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Warmup {
    Seconds(u64),
    Requests(u64),
}

impl std::fmt::Display for Warmup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Warmup::Seconds(s) => write!(f, "{s} s"),
            Warmup::Requests(n) => write!(f, "{n} requests"),
        }
    }
}

/// The warm-up of the "on" settings: the plan's, else 2 s where the tool takes a duration, else a fifth
/// of the condition's requests (a multiple of its concurrency, at least one request a client).
pub fn warmup_for(plan: &CommandPlan, condition: &Condition) -> Result<Warmup> {
    if let Some(s) = plan.load.warmup_s {
        return Ok(Warmup::Seconds(s));
    }
    if let Some(n) = plan.load.warmup_requests {
        return Ok(Warmup::Requests(n));
    }
    let Condition::Command(condition) = condition else { bail!("doctor runs command plans") };
    let load = plan.load_of(condition).map_err(|p| anyhow::anyhow!("{p}"))?;
    if load.tool == crate::plan::command::LoadTool::OpenLoop {
        bail!("measure's open-loop client has no warm-up: doctor compares warm-up on and off, so it needs a load tool");
    }
    if load.tool.rules().duration_s != crate::plan::command::load::Need::Refused {
        return Ok(Warmup::Seconds(2));
    }
    let c = u64::from(load.concurrency.max(1));
    let fifth = load.requests.unwrap_or(c) / 5;
    Ok(Warmup::Requests((fifth / c).max(1) * c))
}

/// The plan's text for one setting: only `first` (each factor at its level), `repetitions` rounds,
/// `load.pin` and the warm-up as the setting says.
pub fn variant_text(text: &str, plan: &CommandPlan, first: &Condition, setting: Setting, warmup: Warmup, rounds: u32) -> Result<String> {
    let mut doc: toml_edit::DocumentMut = text.parse().context("the plan is not TOML (a bug in measure: it was read already)")?;
    let Condition::Command(levels) = first else { bail!("doctor runs command plans") };
    if let Some(factors) = doc.get_mut("factors").and_then(toml_edit::Item::as_table_like_mut) {
        for (name, level) in &levels.0 {
            let Some(array) = factors.get_mut(name).and_then(|i| i.as_array_mut()) else { continue };
            let kept = array.iter().find(|v| v.as_str().map_or_else(|| v.to_string().trim() == level, |s| s == level)).cloned();
            array.clear();
            array.push_formatted(kept.unwrap_or_else(|| toml_edit::Value::from(level.as_str())));
        }
    }
    doc.remove("exclude");
    // The other servers would start in no run: a plan with one is refused.
    if let Some(server) = levels.level(crate::plan::command::SERVER_FACTOR) {
        if let Some(servers) = doc.get_mut("servers").and_then(toml_edit::Item::as_table_like_mut) {
            let others: Vec<String> = servers.iter().map(|(k, _)| k.to_string()).filter(|k| k != server).collect();
            for name in others {
                servers.remove(&name);
            }
        }
    }
    doc["repetitions"] = toml_edit::value(i64::from(rounds));
    doc["order"] = toml_edit::value("rounds");
    let load = doc.get_mut("load").and_then(toml_edit::Item::as_table_like_mut).context("the plan has no [load]")?;
    load.insert("pin", toml_edit::value(setting.pin));
    load.remove("warmup_s");
    load.remove("warmup_requests");
    if setting.warmup {
        match warmup {
            Warmup::Seconds(s) => load.insert("warmup_s", toml_edit::value(s as i64)),
            Warmup::Requests(n) => load.insert("warmup_requests", toml_edit::value(n as i64)),
        };
    }
    let _ = plan;
    Ok(doc.to_string())
}

/// The pooled spread of log values: the sum of squared deviations of each group's logs from the group's
/// own mean, and its degrees of freedom (values minus groups). Groups with fewer than two values add
/// nothing; non-positive values are left out (no log).
pub fn pooled(groups: &[&[f64]]) -> (f64, u32) {
    let (mut ss, mut df) = (0.0, 0u32);
    for group in groups {
        let logs: Vec<f64> = group.iter().filter(|v| **v > 0.0 && v.is_finite()).map(|v| v.ln()).collect();
        if logs.len() < 2 {
            continue;
        }
        let mean = logs.iter().sum::<f64>() / logs.len() as f64;
        ss += logs.iter().map(|l| (l - mean).powi(2)).sum::<f64>();
        df += logs.len() as u32 - 1;
    }
    (ss, df)
}

/// A knob's effect on the spread: the SD of logs without and with it, their ratio off/on and its 95%
/// interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Effect {
    pub sd_off: f64,
    pub sd_on: f64,
    pub ratio: f64,
    pub low: f64,
    pub high: f64,
}

impl Effect {
    /// From the pooled (sum of squares, df) of each side; `None` without spread on either side.
    pub fn of(off: (f64, u32), on: (f64, u32)) -> Option<Effect> {
        let ((ss_off, df_off), (ss_on, df_on)) = (off, on);
        if df_off == 0 || df_on == 0 || ss_on <= 0.0 || ss_off <= 0.0 {
            return None;
        }
        let (var_off, var_on) = (ss_off / f64::from(df_off), ss_on / f64::from(df_on));
        let f = FisherSnedecor::new(f64::from(df_off), f64::from(df_on)).ok()?;
        let r = var_off / var_on;
        // var_off/var_on ÷ the true ratio ~ F(df_off, df_on).
        let (low, high) = (r / f.inverse_cdf(0.975), r / f.inverse_cdf(0.025));
        Some(Effect { sd_off: var_off.sqrt(), sd_on: var_on.sqrt(), ratio: r.sqrt(), low: low.sqrt(), high: high.sqrt() })
    }

    /// The interval covers 1: the knob's effect on the spread is not measurable with these runs.
    pub fn measurable(&self) -> bool {
        !(self.low <= 1.0 && 1.0 <= self.high)
    }
}

/// The smallest change of the headline a comparison of `n` runs a side detects with 80% power in a
/// two-sided 5% test on the logs, when the runs' SD of logs is `sd`; as a fraction (0.05 = 5%).
pub fn minimum_detectable_change(sd: f64, n: u32) -> Option<f64> {
    if n < 2 || !sd.is_finite() {
        return None;
    }
    let t = StudentsT::new(0.0, 1.0, f64::from(2 * n - 2)).ok()?;
    let shift = (t.inverse_cdf(0.975) + t.inverse_cdf(0.80)) * sd * (2.0 / f64::from(n)).sqrt();
    Some(shift.exp() - 1.0)
}

/// The order of the settings in `round`: shuffled with the plan's seed and the round, the same on every
/// machine.
pub fn round_order(seed: u64, round: u32) -> [Setting; 4] {
    let mut order = Setting::ALL;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ (u64::from(round) << 32) ^ 0xd0c7_0d0c);
    order.shuffle(&mut rng);
    order
}

/// `measure doctor`: prints its duration, runs the rounds, then the table.
pub fn run(args: &DoctorArgs) -> Result<StudyEnd> {
    if !(MIN_ROUNDS..=MAX_ROUNDS).contains(&args.rounds) {
        return Err(BadInput::file(
            Path::new("--rounds"),
            format!("{} rounds: give {MIN_ROUNDS} to {MAX_ROUNDS} (each round runs the condition 4 times)", args.rounds),
        )
        .into());
    }
    let (plan, text) = Plan::load(&args.plan)?;
    let Plan::Command(command) = &plan else {
        return Err(
            BadInput::file(&args.plan, "doctor runs command plans (`kind = \"command\"`); the seed studies' plans run unpinned").into()
        );
    };
    let first = plan.conditions().into_iter().next().context("the plan has no condition")?;
    let warmup = warmup_for(command, &first)?;
    let runs = 4 * args.rounds;
    let per_run = command.estimated_run() + Duration::from_secs(2);
    let warm = match warmup {
        Warmup::Seconds(s) => Duration::from_secs(s) / 2,
        Warmup::Requests(_) => Duration::ZERO,
    };
    let total = (per_run + warm) * runs;
    let out = args.out.clone().unwrap_or_else(|| PathBuf::from(format!("{}-doctor", command.dataset.trim_end_matches('/'))));
    println!(
        "measure doctor: {} ({first}), {} rounds of 4 settings (pinning on/off x warm-up of {warmup} on/off): {runs} runs, about {} min",
        args.plan.display(),
        args.rounds,
        total.as_secs().div_ceil(60)
    );
    println!("datasets: {}/<setting>/", out.display());
    if args.dry_run {
        return Ok(StudyEnd::Complete);
    }
    if out.exists() && std::fs::read_dir(&out).map(|mut d| d.next().is_some()).unwrap_or(true) {
        return Err(BadInput::file(&out, "the output folder is not empty; give --out a new folder").into());
    }
    std::fs::create_dir_all(&out).with_context(|| format!("failed to create {}", out.display()))?;
    let exe = std::env::current_exe().context("cannot find the measure binary")?;
    let analyze = match &args.analyze {
        Some(p) => p.clone(),
        None => exe.with_file_name("analyze"),
    };
    for round in 1..=args.rounds {
        for setting in round_order(command.seed, round) {
            let folder = out.join(setting.folder());
            let plan_file = out.join(format!("{}.toml", setting.folder()));
            std::fs::write(&plan_file, variant_text(&text, command, &first, setting, warmup, round)?)
                .with_context(|| format!("failed to write {}", plan_file.display()))?;
            let mut run = Command::new(&exe);
            run.arg("run").arg("--plan").arg(&plan_file).arg("--out").arg(&folder).arg("--analyze").arg(&analyze);
            if round > 1 {
                run.arg("--resume");
            }
            let log = std::fs::OpenOptions::new().create(true).append(true).open(out.join(format!("{}.log", setting.folder())))?;
            let status = run.stdin(Stdio::null()).stdout(log.try_clone()?).stderr(log).status().context("failed to run measure run")?;
            eprintln!(
                "round {round}/{}: {} {}",
                args.rounds,
                setting.folder(),
                if status.success() { "ok" } else { "not ok (see its .log)" }
            );
            if status.code() == Some(130) {
                eprintln!("interrupted");
                return Ok(StudyEnd::Interrupted);
            }
        }
    }
    let mut values: Vec<(Setting, Vec<f64>, String)> = Vec::new();
    for setting in Setting::ALL {
        let (v, what) = headline_values(&analyze, &out.join(setting.folder()), &out.join(format!("report-{}", setting.folder())))?;
        values.push((setting, v, what));
    }
    print!("{}", table(&values, command.repetitions));
    Ok(StudyEnd::Complete)
}

/// The ok runs' headline values of a dataset, read from the `summary.json` of `analyze report`, and what
/// they are ("requests/s" or "p95 ms").
fn headline_values(analyze: &Path, dataset: &Path, report: &Path) -> Result<(Vec<f64>, String)> {
    let status = Command::new(analyze)
        .arg("report")
        .arg(dataset)
        .arg("--out")
        .arg(report)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .with_context(|| format!("failed to run {}", analyze.display()))?;
    if !status.success() {
        bail!("analyze report {} failed ({status})", dataset.display());
    }
    let path = report.join("summary.json");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).with_context(|| format!("failed to read {}", path.display()))?)?;
    let by_rate = summary.get("headline").and_then(|h| h.as_str()) == Some("requests_per_s");
    let what = if by_rate { "requests/s".to_string() } else { format!("p{} ms", summary["percentile"]) };
    let key = if by_rate { "requests_per_s" } else { "headline_ms" };
    let runs = summary.get("runs").and_then(|r| r.as_array()).cloned().unwrap_or_default();
    let values = runs.iter().filter(|r| r["status"] == "ok").filter_map(|r| r[key].as_f64()).collect();
    Ok((values, what))
}

/// The report: each setting's runs and spread, then each knob's ratio of spreads with its interval and the
/// minimum detectable change with and without it.
pub fn table(values: &[(Setting, Vec<f64>, String)], repetitions: u32) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let what = values.first().map_or("value", |v| v.2.as_str());
    let _ = writeln!(s, "\n{:<22} {:>4} {:>14} {:>10}", "setting", "runs", format!("median {what}"), "SD of log");
    for (setting, v, _) in values {
        let (ss, df) = pooled(&[v]);
        let sd = if df > 0 { format!("{:.4}", (ss / f64::from(df)).sqrt()) } else { "-".into() };
        let mut sorted = v.clone();
        sorted.sort_by(f64::total_cmp);
        let median = if sorted.is_empty() { "-".into() } else { format!("{:.1}", sorted[sorted.len() / 2]) };
        let _ = writeln!(s, "{:<22} {:>4} {:>14} {:>10}", setting.folder(), v.len(), median, sd);
    }
    let _ = writeln!(
        s,
        "\n{:<8} {:>14} {:>16}   minimum detectable change with {repetitions} runs a side (80% power, 5% two-sided): off -> on",
        "knob", "spread off/on", "95% interval"
    );
    for (knob, on_of) in [("pinning", (|s: Setting| s.pin) as fn(Setting) -> bool), ("warm-up", |s: Setting| s.warmup)] {
        let side = |on: bool| -> Vec<&[f64]> { values.iter().filter(|(st, ..)| on_of(*st) == on).map(|(_, v, _)| v.as_slice()).collect() };
        let Some(e) = Effect::of(pooled(&side(false)), pooled(&side(true))) else {
            let _ = writeln!(s, "{knob:<8} {:>14} {:>16}   too few ok runs to tell", "-", "-");
            continue;
        };
        let pct = |sd: f64| minimum_detectable_change(sd, repetitions).map_or("-".into(), |m| format!("{:.1}%", 100.0 * m));
        let verdict = if e.measurable() { String::new() } else { "; no measurable effect (the interval covers 1)".into() };
        let _ = writeln!(
            s,
            "{knob:<8} {:>14} {:>16}   {} -> {}{verdict}",
            format!("{:.2}x", e.ratio),
            format!("{:.2}-{:.2}", e.low, e.high),
            pct(e.sd_off),
            pct(e.sd_on)
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pooled_spread_leaves_out_each_cells_own_level() {
        // Two cells at different levels, each spread the same: the pool is each cell's spread.
        let a = [100.0, 110.0, 90.0];
        let b = [200.0, 220.0, 180.0];
        let (ss_a, df_a) = pooled(&[&a]);
        let (ss, df) = pooled(&[&a, &b]);
        assert_eq!(df_a, 2);
        assert_eq!(df, 4);
        assert!((ss - 2.0 * ss_a).abs() < 1e-12, "the doubled level adds no spread");
    }

    #[test]
    fn the_interval_of_equal_spreads_covers_1_and_a_wide_gap_does_not() {
        let e = Effect::of((0.01, 10), (0.01, 10)).unwrap();
        assert!((e.ratio - 1.0).abs() < 1e-12 && !e.measurable());
        // F(10, 10) 97.5% quantile is 3.717: a variance ratio of 9 gives [2.42, 33.5], SD ratio 3 [1.56, 5.79].
        let e = Effect::of((0.09, 10), (0.01, 10)).unwrap();
        assert!((e.ratio - 3.0).abs() < 1e-12);
        assert!((e.low - (9.0_f64 / 3.7168).sqrt()).abs() < 1e-3, "{e:?}");
        assert!(e.measurable());
        assert_eq!(Effect::of((0.0, 10), (0.01, 10)), None);
    }

    /// A seeded simulation: with SD 0.025 off and 0.008 on (the A/A) and 8 runs a setting pooled
    /// over two cells, the interval excludes 1 in at least 95% of trials and covers the true ratio in
    /// 93-97% of them.
    #[test]
    fn the_intervals_cover_the_true_ratio_about_95_percent_of_the_time() {
        use rand::Rng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(47);
        let mut normal = || {
            let (u, v): (f64, f64) = (rng.gen::<f64>().max(f64::MIN_POSITIVE), rng.gen());
            (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
        };
        let (trials, mut covered, mut measured) = (2_000, 0, 0);
        for _ in 0..trials {
            let mut cells = Vec::new();
            for sd in [0.025, 0.025, 0.008, 0.008] {
                cells.push((0..8).map(|_| (1000.0f64).ln() + sd * normal()).map(f64::exp).collect::<Vec<f64>>());
            }
            let e = Effect::of(pooled(&[&cells[0], &cells[1]]), pooled(&[&cells[2], &cells[3]])).unwrap();
            covered += usize::from(e.low <= 0.025 / 0.008 && 0.025 / 0.008 <= e.high);
            measured += usize::from(e.measurable());
        }
        let coverage = covered as f64 / trials as f64;
        assert!((0.93..=0.97).contains(&coverage), "coverage {coverage}");
        assert!(measured as f64 / trials as f64 >= 0.95, "{measured}");
    }

    #[test]
    fn the_minimum_detectable_change_shrinks_with_the_spread_and_the_runs() {
        // 3 runs a side, SD 0.025: (2.776 + 0.941) * 0.025 * sqrt(2/3) = 0.0759 on the log scale.
        let m = minimum_detectable_change(0.025, 3).unwrap();
        assert!((m - (0.07589_f64).exp_m1()).abs() < 5e-4, "{m}");
        assert!(minimum_detectable_change(0.008, 3).unwrap() < m / 3.0 + 1e-3);
        assert!(minimum_detectable_change(0.025, 10).unwrap() < m);
        assert_eq!(minimum_detectable_change(0.025, 1), None);
    }

    #[test]
    fn each_round_runs_every_setting_once_in_an_order_of_its_own() {
        let orders: Vec<[Setting; 4]> = (1..=6).map(|r| round_order(7, r)).collect();
        for order in &orders {
            for s in Setting::ALL {
                assert_eq!(order.iter().filter(|o| **o == s).count(), 1);
            }
        }
        assert!(orders.windows(2).any(|w| w[0] != w[1]), "shuffled per round");
        assert_eq!(round_order(7, 3), orders[2], "the same seed and round give the same order");
    }

    #[test]
    fn a_variant_keeps_only_the_first_condition_and_sets_the_knobs() {
        let text = include_str!("../plans/static-file-servers.toml");
        let plan = CommandPlan::from_toml(text).unwrap();
        let first = Plan::Command(plan.clone()).conditions().remove(0);
        let variant = variant_text(text, &plan, &first, Setting { pin: false, warmup: true }, Warmup::Requests(200), 3).unwrap();
        let again = CommandPlan::from_toml(&variant).unwrap();
        assert_eq!(Plan::Command(again.clone()).conditions(), vec![first]);
        assert_eq!((again.repetitions, again.load.pin, again.load.warmup_requests, again.load.warmup_s), (3, false, Some(200), None));
        assert!(again.validate().is_empty(), "{:?}", again.validate());
    }
}
