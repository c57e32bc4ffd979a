//! Latency from the intended send: an open-loop client that stalls for 100 ms sends ten requests
//! late (coordinated omission). Each of them is served in 2 ms, so the latencies timed from the
//! actual send show nothing; timed from when the schedule said they should leave, the tail shows
//! the stall. The values are worked by hand and by a plain reference below.

use assert_cmd::Command;
use std::path::Path;

const REQUESTS: usize = 100;
const PERIOD_MS: f64 = 10.0;
const LATENCY_MS: f64 = 2.0;
/// Requests 50-59 (scheduled 500-590 ms) all leave at 600 ms: lags 100, 90, ..., 10 ms.
const STALL: std::ops::Range<usize> = 50..60;
const RESUMED_MS: f64 = 600.0;

fn sent_ms(seq: usize) -> f64 {
    let scheduled = seq as f64 * PERIOD_MS;
    if STALL.contains(&seq) {
        RESUMED_MS
    } else {
        scheduled
    }
}

/// The nearest rank of `p` among `values`: the ceil(p·n/100)-th smallest.
fn reference(mut values: Vec<f64>, p: f64) -> f64 {
    values.sort_by(f64::total_cmp);
    let rank = ((p / 100.0) * values.len() as f64).ceil().max(1.0) as usize;
    values[rank - 1]
}

fn analyze(args: &[&str]) {
    let output = Command::cargo_bin("analyze").unwrap().args(args).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
}

fn write_dataset(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("runs.csv"), "run_id,route,repetition,started_at_utc,status,note\nr1,direct,1,2026-11-30T01:00:00Z,ok,\n")
        .unwrap();
    let mut requests = String::from("run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes\n");
    for seq in 0..REQUESTS {
        requests += &format!("r1,{seq},{:.3},{:.3},{LATENCY_MS:.3},200,12\n", seq as f64 * PERIOD_MS, sent_ms(seq));
    }
    std::fs::write(dir.join("requests.csv"), requests).unwrap();
}

#[test]
fn a_stalled_open_loop_shows_its_wait_from_the_intended_send_and_hides_it_from_the_actual_send() {
    let temp = tempfile::tempdir().unwrap();
    let (dataset, out) = (temp.path().join("stall"), temp.path().join("out"));
    write_dataset(&dataset);
    analyze(&["report", dataset.to_str().unwrap(), "--out", out.to_str().unwrap(), "--lang", "en"]);
    let summary: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    let run = &summary["runs"][0];
    assert_eq!(run["load"], "open_loop");

    // By hand: 90 values of 2 ms, then 12, 22, ..., 102 ms. Ranks 50 and 90 are 2 ms, rank 95 is
    // the fifth late one (52 ms), rank 99 the ninth (92 ms), rank 100 the tenth (102 ms).
    let by_hand = [("50", 2.0), ("90", 2.0), ("95", 52.0), ("99", 92.0), ("99.9", 102.0)];
    let from_intended: Vec<f64> = (0..REQUESTS).map(|seq| LATENCY_MS + (sent_ms(seq) - seq as f64 * PERIOD_MS)).collect();
    for (key, value) in by_hand {
        let p: f64 = key.parse().unwrap();
        assert!((reference(from_intended.clone(), p) - value).abs() < 1e-9, "the reference agrees with the hand at p{key}");
        assert!((run["from_intended_ms"][key].as_f64().unwrap() - value).abs() < 1e-9, "p{key}: {}", run["from_intended_ms"]);
        assert_eq!(run["percentiles_ms"][key], 2.0, "p{key} from the actual send shows nothing");
    }
    assert_eq!(run["intended_gap"]["key"], "99.9", "the widest gap: 102 ms against 2 ms");
    assert_eq!(summary["conditions"][0]["from_intended_ms"]["95"]["median"], 52.0);

    let page = std::fs::read_to_string(out.join("runs/r1.html")).unwrap();
    assert!(page.contains("From the intended send (ms)"), "the column");
    assert!(page.contains("p99.9 (maximum) is 102.00 ms, against 2.00 ms"), "the note says what the stall hides");
    assert!(out.join("figures/send-lag-r1.svg").exists(), "the send-lag chart");

    let out_ja = temp.path().join("out-ja");
    analyze(&["report", dataset.to_str().unwrap(), "--out", out_ja.to_str().unwrap(), "--lang", "ja"]);
    let page = std::fs::read_to_string(out_ja.join("runs/r1.html")).unwrap();
    assert!(page.contains("予定送信時刻から"), "the Japanese column");
}

#[test]
fn requests_that_left_on_schedule_give_the_same_values_and_no_note() {
    let temp = tempfile::tempdir().unwrap();
    let (dataset, out) = (temp.path().join("steady"), temp.path().join("out"));
    write_dataset(&dataset);
    // Every request on time: rewrite the stalled sends to their schedule (+0.1 ms).
    let text = std::fs::read_to_string(dataset.join("requests.csv")).unwrap();
    let steady: String = text
        .lines()
        .map(|line| {
            let cells: Vec<&str> = line.split(',').collect();
            match cells[1].parse::<f64>() {
                Ok(seq) => format!("{},{},{},{:.3},{}\n", cells[0], cells[1], cells[2], seq * PERIOD_MS + 0.1, cells[4..].join(",")),
                Err(_) => format!("{line}\n"),
            }
        })
        .collect();
    std::fs::write(dataset.join("requests.csv"), steady).unwrap();
    analyze(&["report", dataset.to_str().unwrap(), "--out", out.to_str().unwrap(), "--lang", "en"]);
    let summary: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    let run = &summary["runs"][0];
    // A constant 0.1 ms dispatch lag: 2.1 ms from the intended send, within the 1 ms floor.
    assert!((run["from_intended_ms"]["99"].as_f64().unwrap() - 2.1).abs() < 1e-9, "{}", run["from_intended_ms"]);
    assert!(run.get("intended_gap").is_none_or(|g| g.is_null()), "{run}");
    let page = std::fs::read_to_string(out.join("runs/r1.html")).unwrap();
    assert!(!page.contains("hides that wait"), "no note without a gap");
}
