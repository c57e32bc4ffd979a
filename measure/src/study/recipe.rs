//! A condition's recipe: what decides how its runs are measured, so that runs measured two ways never
//! pool in one condition. Each run records, in runs.csv's `recipe` column, the fingerprint of its
//! condition's recipe when it ran (the first 12 hex digits of a sha256).
//!
//! What a recipe holds:
//! - a command plan: the condition's own levels, its server's table (`command`, `cwd`, `env`, `files`,
//!   `ready`, the stop settings; not its `label` or `version` command), `[load]` and `[sampling]`, and
//!   what the preflight found of the programs: the load tool's version and the server's
//!   `<name>_version` and `<name>_sha256` (a rebuilt server is another recipe);
//! - the seed studies' open- and closed-loop plans: the whole plan but its titles, `dataset`, `seed`,
//!   `repetitions`, `order` and `[host]`, and every tool version the preflight recorded.
//!
//! On `--resume` (with the dataset's plan.toml, edited or not, or with `--plan`), every `ok` run whose
//! recorded recipe is not its condition's recipe now is set aside: its row becomes `excluded` with a
//! `measure.recipe-changed` note (its rows and files stay), so the condition is measured again whole under
//! the new recipe. A run of an older measure has no recipe recorded: it counts as measured under the
//! recipe of the plan the dataset kept until now.

use crate::dataset::manifest::Environment;
use crate::dataset::rows::{condition_cells, RunRow, RunStatus};
use crate::plan::{Condition, Plan};
use anyhow::{Context, Result};
use request_row::note_words::NoteKey;
use std::collections::BTreeMap;

/// A recipe's fingerprint per condition of a plan.
pub type Recipes = BTreeMap<Condition, String>;

/// Keys of a seed study's plan that say how it is shown or ordered, not how a run is measured.
const NOT_RECIPE: [&str; 7] = ["title", "description", "dataset", "seed", "repetitions", "order", "host"];

/// Keys of a command plan's server table that do not change how it runs.
const SERVER_NOT_RECIPE: [&str; 2] = ["label", "version"];

/// The recipe of each condition of `plan` (read from `text`), with the tool versions the preflight
/// found (`versions`).
pub fn recipes(plan: &Plan, text: &str, versions: &Environment) -> Result<Recipes> {
    let table: toml::Table = text.parse().context("the plan's text is not TOML (a bug in measure)")?;
    let mut out = Recipes::new();
    for condition in plan.conditions() {
        let mut recipe = toml::Table::new();
        match (plan, &condition) {
            (Plan::Command(p), Condition::Command(c)) => {
                let levels: toml::Table = c.0.iter().map(|(k, v)| (k.clone(), toml::Value::String(v.clone()))).collect();
                recipe.insert("levels".into(), levels.into());
                for key in ["load", "sampling"] {
                    if let Some(value) = table.get(key) {
                        recipe.insert(key.into(), value.clone());
                    }
                }
                let tool = format!("{}_version", p.load.tool.as_str());
                let mut found: Vec<String> = vec![tool];
                if let Some((name, _)) = p.server_of(c) {
                    if let Some(mut server) = table.get("servers").and_then(|s| s.get(name)).and_then(toml::Value::as_table).cloned() {
                        for key in SERVER_NOT_RECIPE {
                            server.remove(key);
                        }
                        recipe.insert("server".into(), server.into());
                    }
                    found.extend([format!("{name}_version"), format!("{name}_sha256")]);
                }
                let programs: toml::Table =
                    found.iter().filter_map(|k| versions.get(k).map(|v| (k.clone(), toml::Value::String(v.clone())))).collect();
                recipe.insert("programs".into(), programs.into());
            }
            _ => {
                let mut whole = table.clone();
                for key in NOT_RECIPE {
                    whole.remove(key);
                }
                recipe.insert("plan".into(), whole.into());
                let programs: toml::Table = versions.iter().map(|(k, v)| (k.clone(), toml::Value::String(v.clone()))).collect();
                recipe.insert("programs".into(), programs.into());
            }
        }
        let mut canonical = String::new();
        write_canonical(&toml::Value::Table(recipe), &mut canonical);
        out.insert(condition, crate::host::sha256_hex(canonical.as_bytes())[..12].to_string());
    }
    Ok(out)
}

/// `value` as text with every table's keys sorted, so the fingerprint depends on what the plan says,
/// not on how its file orders or formats it.
fn write_canonical(value: &toml::Value, out: &mut String) {
    match value {
        toml::Value::Table(table) => {
            let mut keys: Vec<&String> = table.keys().collect();
            keys.sort();
            out.push('{');
            for key in keys {
                out.push_str(&format!("{key:?}="));
                write_canonical(&table[key], out);
                out.push(',');
            }
            out.push('}');
        }
        toml::Value::Array(items) => {
            out.push('[');
            for item in items {
                write_canonical(item, out);
                out.push(',');
            }
            out.push(']');
        }
        toml::Value::String(s) => out.push_str(&format!("{s:?}")),
        other => out.push_str(&other.to_string()),
    }
}

/// A condition whose `ok` runs were measured under another recipe than its recipe now.
#[derive(Debug, Clone, PartialEq)]
pub struct Changed {
    pub condition: Condition,
    /// The `ok` runs set aside, with the recipe each was measured under.
    pub runs: Vec<(String, String)>,
    /// The condition's recipe now.
    pub now: String,
}

/// The conditions whose `ok` runs were measured under another recipe than `now`'s. A run without a
/// recorded recipe (an older measure's) counts as measured under `kept`'s, the recipes of the plan the
/// dataset kept until now.
pub fn changed(runs: &[RunRow], now: &Recipes, kept: &Recipes) -> Vec<Changed> {
    let mut by_condition: BTreeMap<&Condition, Vec<(String, String)>> = BTreeMap::new();
    for run in runs.iter().filter(|r| r.status == RunStatus::Ok) {
        let condition = &run.slot.condition;
        let Some(current) = now.get(condition) else { continue };
        let measured = if run.recipe.is_empty() { kept.get(condition).cloned().unwrap_or_default() } else { run.recipe.clone() };
        if measured.is_empty() || measured != *current {
            by_condition.entry(condition).or_default().push((run.run_id.clone(), measured));
        }
    }
    by_condition.into_iter().map(|(condition, runs)| Changed { condition: condition.clone(), runs, now: now[condition].clone() }).collect()
}

/// Marks the `ok` runs of the changed conditions `excluded`, each with a note naming the recipe it was
/// measured under and the condition's recipe now; their rows and files stay.
pub fn set_aside(runs: &mut [RunRow], changed: &[Changed]) {
    for change in changed {
        for (run_id, measured) in &change.runs {
            let Some(run) = runs.iter_mut().find(|r| r.run_id == *run_id) else { continue };
            let recipe = if measured.is_empty() { "unknown" } else { measured.as_str() };
            let note = crate::run::note::message(NoteKey::MeasureRecipeChanged, &[("recipe", &recipe), ("now", &change.now)]);
            run.status = RunStatus::Excluded;
            run.note = crate::run::note::join(&[run.note.clone(), note]);
        }
    }
}

/// `server=py, concurrency=2`: a condition as the messages name it.
pub fn condition_name(plan: &Plan, condition: &Condition) -> String {
    plan.factors().iter().zip(condition_cells(condition)).map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(", ")
}

/// What `measure run` says before the first run when conditions are measured again.
pub fn describe(plan: &Plan, changed: &[Changed]) -> String {
    let count = changed.len();
    let mut text = format!(
        "the recipe of {count} condition{} changed since {} runs: {} measured again whole under the new recipe, the old \
         runs set aside (status excluded, note measure.recipe-changed; their rows and files stay):\n",
        if count == 1 { "" } else { "s" },
        if count == 1 { "its" } else { "their" },
        if count == 1 { "it is" } else { "they are" },
    );
    for change in changed {
        let ids: Vec<&str> = change.runs.iter().map(|(id, _)| id.as_str()).collect();
        let old: std::collections::BTreeSet<&str> =
            change.runs.iter().map(|(_, r)| if r.is_empty() { "unknown" } else { r.as_str() }).collect();
        text.push_str(&format!(
            "  {}: recipe {} -> {}; {} set aside\n",
            condition_name(plan, &change.condition),
            old.into_iter().collect::<Vec<_>>().join(", "),
            change.now,
            ids.join(", ")
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::Slot;

    const EXAMPLE: &str = include_str!("../../plans/static-file-servers.toml");

    fn command(text: &str) -> Plan {
        Plan::parse(text).unwrap()
    }

    fn versions(sha: &str) -> Environment {
        [("hey_version", "0.1.4"), ("nginx_sha256", sha), ("nginx_version", "nginx/1.22.1"), ("http-server_sha256", "bb")]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn run(id: &str, slot: Slot, status: RunStatus, recipe: &str) -> RunRow {
        RunRow::of_test(id, slot, status, recipe)
    }

    fn server_of(plan: &Plan, c: &Condition) -> String {
        condition_cells(c)[plan.factors().iter().position(|f| f == "server").unwrap()].clone()
    }

    #[test]
    fn a_servers_command_or_binary_changes_only_its_own_conditions() {
        let plan = command(EXAMPLE);
        let before = recipes(&plan, EXAMPLE, &versions("aa")).unwrap();
        assert_eq!(before.len(), plan.conditions().len());
        assert!(before.values().all(|r| r.len() == 12 && r.chars().all(|c| c.is_ascii_hexdigit())));
        // The same plan laid out otherwise, with another title and seed, is the same recipe.
        let reworded = EXAMPLE
            .replace("seed = 20261204", "seed = 7")
            .replace("repetitions = 6", "repetitions = 5")
            .replace("title = { en = \"A static file: nginx vs python -m http.server\"", "title = { en = \"Another title\"");
        assert_eq!(reworded.matches("seed = 7").count() + reworded.matches("Another title").count(), 2);
        assert_eq!(recipes(&command(&reworded), &reworded, &versions("aa")).unwrap(), before);
        let rebuilt = recipes(&plan, EXAMPLE, &versions("ab")).unwrap();
        for (condition, recipe) in &before {
            let nginx = server_of(&plan, condition) == "nginx";
            assert_eq!(rebuilt[condition] != *recipe, nginx, "{condition:?}: only nginx's conditions change with its binary");
        }
        let text = EXAMPLE.replace("\"--directory\", \"{run_dir}/www\"", "\"--directory\", \"{run_dir}/www/\"");
        assert_ne!(text, EXAMPLE, "the example's http-server command");
        let edited = recipes(&command(&text), &text, &versions("aa")).unwrap();
        for (condition, recipe) in &before {
            let http = server_of(&plan, condition) == "http-server";
            assert_eq!(edited[condition] != *recipe, http, "{condition:?}: only http-server's conditions change with its command");
        }
        let text = EXAMPLE.replace("requests = 2000\n", "requests = 1000\n");
        let fewer = recipes(&command(&text), &text, &versions("aa")).unwrap();
        assert!(before.iter().all(|(c, r)| fewer[c] != *r), "the load's request count is every condition's recipe");
    }

    #[test]
    fn ok_runs_of_another_recipe_are_set_aside_with_a_note() {
        let plan = command(EXAMPLE);
        let old = recipes(&plan, EXAMPLE, &versions("aa")).unwrap();
        let now = recipes(&plan, EXAMPLE, &versions("ab")).unwrap();
        let order = plan.run_order();
        let nginx = order.iter().find(|s| server_of(&plan, &s.condition) == "nginx").unwrap().clone();
        let other = order.iter().find(|s| server_of(&plan, &s.condition) != "nginx").unwrap().clone();
        let mut runs = vec![
            run("r01", nginx.clone(), RunStatus::Ok, &old[&nginx.condition]),
            run("r02", nginx.clone(), RunStatus::Aborted, &old[&nginx.condition]),
            run("r03", other.clone(), RunStatus::Ok, &old[&other.condition]),
            // An older measure's run: measured under the recipe the dataset kept.
            run("r04", other.clone(), RunStatus::Ok, ""),
        ];
        let changed = changed(&runs, &now, &old);
        assert_eq!(
            changed,
            [Changed {
                condition: nginx.condition.clone(),
                runs: vec![("r01".into(), old[&nginx.condition].clone())],
                now: now[&nginx.condition].clone()
            }]
        );
        set_aside(&mut runs, &changed);
        assert_eq!(runs[0].status, RunStatus::Excluded);
        assert_eq!(runs[0].note, format!("measure.recipe-changed(recipe={}, now={})", old[&nginx.condition], now[&nginx.condition]));
        assert_eq!([runs[1].status, runs[2].status, runs[3].status], [RunStatus::Aborted, RunStatus::Ok, RunStatus::Ok]);
        let said = describe(&plan, &changed);
        assert!(said.starts_with("the recipe of 1 condition changed since its runs: it is measured again whole"), "{said}");
        assert!(
            said.contains(&format!(
                "{}: recipe {} -> {}; r01 set aside\n",
                condition_name(&plan, &nginx.condition),
                old[&nginx.condition],
                now[&nginx.condition]
            )),
            "{said}"
        );
    }
}
