//! Requests by endpoint: the tools' request names survive `analyze import`, and a dataset whose
//! runs mix labels gets per-label statistics in summary.json equal to a plain computation from
//! its rows (sort, nearest rank ceil(p·n/100), median of the runs' values).

use assert_cmd::cargo::cargo_bin;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixture(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/import").join(path)
}

fn analyze() -> Command {
    Command::new(cargo_bin("analyze"))
}

fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

fn import(dataset: &Path, run_id: &str, file: &str, tool: &str) {
    let out = analyze()
        .arg("import")
        .arg(fixture(file))
        .arg("--into")
        .arg(dataset)
        .args(["--run-id", run_id, "--factor", &format!("tool={tool}")])
        .output()
        .unwrap();
    assert!(out.status.success(), "{file}: {}", text(&out));
}

/// requests.csv's rows of a run: (label, status, latency).
fn rows_of(dataset: &Path, run_id: &str) -> Vec<(String, u16, Option<f64>)> {
    let mut reader = csv::Reader::from_path(dataset.join("requests.csv")).unwrap();
    let header = reader.headers().unwrap().clone();
    let at = |name: &str| header.iter().position(|h| h == name).unwrap_or_else(|| panic!("no column {name}"));
    let (run, label, status, latency) = (at("run_id"), at("label"), at("status"), at("latency_ms"));
    reader
        .records()
        .map(Result::unwrap)
        .filter(|r| &r[run] == run_id)
        .map(|r| (r[label].to_string(), r[status].parse().unwrap(), r[latency].parse().ok()))
        .collect()
}

fn count_by_label(rows: &[(String, u16, Option<f64>)]) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for (label, _, _) in rows {
        *counts.entry(label.clone()).or_insert(0) += 1;
    }
    counts
}

#[test]
fn jmeter_and_k6_files_with_several_names_import_with_their_labels() {
    let root = tempfile::tempdir().unwrap();
    let dataset = root.path().join("d");
    std::fs::create_dir(&dataset).unwrap();
    import(&dataset, "jmeter", "jmeter/labels.jtl", "jmeter");
    import(&dataset, "k6-json", "k6/labels.json", "k6");
    import(&dataset, "k6-csv", "k6/labels.csv", "k6");

    // JMeter: the label column, in sample order (read from the JTL by the csv crate).
    let mut jtl = csv::Reader::from_path(fixture("jmeter/labels.jtl")).unwrap();
    let expected: Vec<String> = jtl.records().map(|r| r.unwrap()[2].to_string()).collect();
    let rows = rows_of(&dataset, "jmeter");
    assert_eq!(rows.iter().map(|r| r.0.clone()).collect::<Vec<_>>(), expected, "each sample keeps its label, in order");
    assert_eq!(
        count_by_label(&rows),
        BTreeMap::from([("home".into(), 57), ("login".into(), 27), ("search, <q>".into(), 36)]),
        "a name with a comma and markup is kept as it is"
    );

    // k6: the name tag, or the url where a point has none; JSON and CSV agree.
    let names = count_by_label(&rows_of(&dataset, "k6-json"));
    assert_eq!(names.keys().collect::<Vec<_>>(), ["GET /users/{id}", "POST /login", "http://127.0.0.1:18089/"]);
    assert_eq!(names.values().sum::<usize>(), 90);
    assert_eq!(
        rows_of(&dataset, "k6-json").iter().map(|r| &r.0).collect::<Vec<_>>(),
        rows_of(&dataset, "k6-csv").iter().map(|r| &r.0).collect::<Vec<_>>()
    );

    let check = analyze().arg("check").arg(&dataset).output().unwrap();
    assert!(matches!(check.status.code(), Some(0 | 1)), "{}", text(&check));
}

#[test]
fn importing_a_labelled_run_into_a_dataset_without_labels_gives_the_old_rows_an_empty_label() {
    let root = tempfile::tempdir().unwrap();
    let dataset = root.path().join("d");
    std::fs::create_dir(&dataset).unwrap();
    import(&dataset, "hey", "hey/hey.csv", "hey");
    let before = std::fs::read_to_string(dataset.join("requests.csv")).unwrap();
    assert!(before.starts_with("run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes\n"));
    import(&dataset, "jmeter", "jmeter/labels.jtl", "jmeter");
    let after = std::fs::read_to_string(dataset.join("requests.csv")).unwrap();
    let mut lines = after.lines();
    assert_eq!(lines.next(), Some("run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes,label"));
    for (old, new) in before.lines().skip(1).zip(lines.by_ref()) {
        assert_eq!(new, format!("{old},"), "an old row, unchanged but for its empty label");
    }
    assert!(rows_of(&dataset, "jmeter").iter().all(|r| !r.0.is_empty()));
    // And a run without names appended after: an empty label.
    import(&dataset, "hey2", "hey/hey.csv", "hey");
    assert!(rows_of(&dataset, "hey2").iter().all(|r| r.0.is_empty()));
    let check = analyze().arg("check").arg(&dataset).output().unwrap();
    assert!(matches!(check.status.code(), Some(0 | 1)), "{}", text(&check));
}

/// Per label: (requests, requests without a 2xx response).
fn requests_and_errors(rows: &[(String, u16, Option<f64>)]) -> BTreeMap<String, (usize, usize)> {
    let mut counts = BTreeMap::new();
    for (label, status, _) in rows {
        let entry = counts.entry(label.clone()).or_insert((0, 0));
        entry.0 += 1;
        entry.1 += usize::from(!(200..300).contains(status));
    }
    counts
}

#[test]
fn vegeta_siege_and_oha_rows_keep_their_urls_as_labels() {
    let root = tempfile::tempdir().unwrap();
    let dataset = root.path().join("d");
    std::fs::create_dir(&dataset).unwrap();
    import(&dataset, "vegeta-csv", "vegeta/labels.csv", "vegeta");
    import(&dataset, "vegeta-json", "vegeta/labels.json", "vegeta");
    import(&dataset, "siege", "siege/labels-verbose.txt", "siege");

    // vegeta: each result's url as it attacked it, as k6 groups a point without a name tag.
    // Counted from labels.csv by hand: 18 to /login (a 500), 17 to /page.html (two 500s), 25 to
    // /search?q=a,b (a 500 and a refused connection).
    let vegeta = requests_and_errors(&rows_of(&dataset, "vegeta-csv"));
    assert_eq!(
        vegeta,
        BTreeMap::from([
            ("http://127.0.0.1:18089/login".into(), (18, 1)),
            ("http://127.0.0.1:18089/page.html".into(), (17, 2)),
            ("http://127.0.0.1:18089/search?q=a,b".into(), (25, 2)),
        ])
    );
    assert_eq!(rows_of(&dataset, "vegeta-json"), rows_of(&dataset, "vegeta-csv"), "JSON and CSV give the same labelled rows");

    // siege -v -f urls.txt: 2 users walking 3 URLs 10 times, each line ends with the URL.
    assert_eq!(
        requests_and_errors(&rows_of(&dataset, "siege")),
        BTreeMap::from([("/missing".into(), (6, 6)), ("/page.html".into(), (7, 0)), ("/small.html".into(), (7, 0))])
    );

    // oha's sqlite keeps each request's url: a real database with a quarter of its rows given
    // another path (oha -n 1000 fetched one URL).
    let db = root.path().join("two-urls.db");
    std::fs::copy(fixture("oha/oha.db"), &db).unwrap();
    let connection = rusqlite::Connection::open(&db).unwrap();
    assert_eq!(connection.execute("UPDATE oha SET url = '/other.html' WHERE rowid % 4 = 0", []).unwrap(), 250);
    drop(connection);
    let out =
        analyze().arg("import").arg(&db).arg("--into").arg(&dataset).args(["--run-id", "oha", "--factor", "tool=oha"]).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let oha = count_by_label(&rows_of(&dataset, "oha"));
    assert_eq!(oha, BTreeMap::from([("/mixed.html".into(), 750), ("/other.html".into(), 250)]));

    let check = analyze().arg("check").arg(&dataset).output().unwrap();
    assert!(matches!(check.status.code(), Some(0 | 1)), "{}", text(&check));
}

#[test]
fn a_run_of_one_request_name_writes_no_label_column() {
    let root = tempfile::tempdir().unwrap();
    let dataset = root.path().join("d");
    std::fs::create_dir(&dataset).unwrap();
    // Every result of vegeta.csv, every line of siege-verbose.txt and every row of oha.db has one URL.
    import(&dataset, "vegeta", "vegeta/vegeta.csv", "vegeta");
    import(&dataset, "siege", "siege/siege-verbose.txt", "siege");
    import(&dataset, "oha", "oha/oha.db", "oha");
    let requests = std::fs::read_to_string(dataset.join("requests.csv")).unwrap();
    assert!(requests.starts_with("run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes\n"), "{}", &requests[..80]);
    // Into a dataset that has labels, a one-name run's rows carry their name.
    import(&dataset, "vegeta-labels", "vegeta/labels.csv", "vegeta");
    import(&dataset, "vegeta-again", "vegeta/vegeta.csv", "vegeta");
    assert!(rows_of(&dataset, "vegeta-again").iter().all(|r| r.0 == "http://127.0.0.1:18089/page.html"));
    assert!(rows_of(&dataset, "siege").iter().all(|r| r.0.is_empty()));
}

/// tool_labels.csv's rows of a run: label → (requests, errors, p50, p95, p99, max) as written.
fn tool_labels_of(dataset: &Path, run_id: &str) -> BTreeMap<String, (u64, u64, String, String, String, String)> {
    let mut reader = csv::Reader::from_path(dataset.join("tool_labels.csv")).unwrap();
    reader
        .records()
        .map(Result::unwrap)
        .filter(|r| &r[0] == run_id)
        .map(|r| (r[1].to_string(), (r[2].parse().unwrap(), r[3].parse().unwrap(), r[4].into(), r[5].into(), r[6].into(), r[7].into())))
        .collect()
}

#[test]
fn locust_figures_per_name_import_with_their_labels_and_reach_the_pages() {
    let root = tempfile::tempdir().unwrap();
    let dataset = root.path().join("d");
    std::fs::create_dir(&dataset).unwrap();
    import(&dataset, "csv", "locust/labels_stats.csv", "locust-csv");
    import(&dataset, "json", "locust/labels.json", "locust-json");
    // labels_stats.csv's three rows above Aggregated, as Locust printed them.
    let csv = tool_labels_of(&dataset, "csv");
    let s = |v: &str| v.to_string();
    assert_eq!(csv["GET /missing"], (58, 58, s("1"), s("6"), s("9"), s("8.989021000161301")));
    assert_eq!(csv["GET /page.html"], (173, 0, s("3"), s("11"), s("14"), s("21.12782499898458")));
    assert_eq!(csv["GET /small.html?q=[q]"], (270, 0, s("1"), s("10"), s("12"), s("20.30154300155118")));
    // labels.json: each entry's buckets, ranked by Locust's rule (the bucket at rank
    // floor(n·p)+1), worked out from the file: 240 responses of /small.html?q=[q], rank 121,
    // 229 and 238.
    let json = tool_labels_of(&dataset, "json");
    assert_eq!(json.keys().collect::<Vec<_>>(), ["GET /missing", "GET /page.html", "GET /small.html?q=[q]"]);
    assert_eq!(json["GET /small.html?q=[q]"], (240, 0, s("4"), s("11"), s("58"), s("83.11607900395757")));
    assert_eq!(json["GET /page.html"], (185, 0, s("4"), s("12"), s("17"), s("21.622210995701607")));
    assert_eq!(json["GET /missing"], (51, 51, s("1"), s("10"), s("11"), s("10.70523099770071")));

    let check = analyze().arg("check").arg(&dataset).output().unwrap();
    assert!(check.status.success(), "{}", text(&check));
    let out = root.path().join("out");
    let report = analyze().arg("report").arg(&dataset).arg("--out").arg(&out).output().unwrap();
    assert!(report.status.success(), "{}", text(&report));
    let summary: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let labels = &summary["runs"][1]["tool_reported"]["labels"];
    assert_eq!(labels[0]["label"], "GET /small.html?q=[q]", "most requests first");
    assert_eq!((labels[0]["requests"].as_u64(), labels[0]["percentiles_ms"]["99"].as_f64()), (Some(240), Some(58.0)));
    let page = std::fs::read_to_string(out.join("runs/json.html")).unwrap();
    assert!(page.contains("id=\"tool-labels-section\"") && page.contains("small.html?q=[q]"), "the run page shows Locust's table");
    assert!(page.contains("rounds each response time into a bucket"), "and says the figures are Locust's bucket-rounded ones");
}

#[test]
fn a_locust_table_whose_names_do_not_add_up_is_refused_at_its_cell_and_changes_nothing() {
    let root = tempfile::tempdir().unwrap();
    let dataset = root.path().join("d");
    std::fs::create_dir(&dataset).unwrap();
    import(&dataset, "first", "locust/labels_stats.csv", "locust");
    // /page.html's Request Count 173 made 172: the Aggregated 501 is no longer the rows' sum.
    let edited =
        std::fs::read_to_string(fixture("locust/labels_stats.csv")).unwrap().replacen("GET,/page.html,173,", "GET,/page.html,172,", 1);
    let file = root.path().join("edited_stats.csv");
    std::fs::write(&file, edited).unwrap();
    let said = refused_import(&dataset, &file, "locust");
    // The Aggregated row is line 5; its Request Count is the 3rd field, at column 13.
    assert!(said.contains("edited_stats.csv:5:13") && said.contains("add up to 500"), "{said}");

    // --json: an entry whose buckets do not hold its num_requests is refused at that entry.
    let json =
        std::fs::read_to_string(fixture("locust/labels.json")).unwrap().replacen("\"num_requests\": 185,", "\"num_requests\": 186,", 1);
    let file = root.path().join("edited.json");
    std::fs::write(&file, &json).unwrap();
    let line = json.lines().position(|l| l.contains("\"num_requests\": 186")).unwrap() + 1;
    let said = refused_import(&dataset, &file, "locust");
    assert!(said.contains(&format!("edited.json:{line}:9")) && said.contains("GET /page.html"), "{said}");
}

/// Every file of a dataset folder, by name, with its bytes (not the folder raw/ the imports keep
/// their source files in).
fn files_of(dataset: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dataset)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
        .collect()
}

/// Imports `file` as run "second" into `dataset`, which must refuse it (exit 2) and leave the
/// dataset's files as they were; the output's text, for the place and reason it names.
fn refused_import(dataset: &Path, file: &Path, tool: &str) -> String {
    let before = files_of(dataset);
    let out = analyze()
        .arg("import")
        .arg(file)
        .arg("--into")
        .arg(dataset)
        .args(["--run-id", "second", "--factor", &format!("tool={tool}")])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert_eq!(before, files_of(dataset), "a refused import leaves the dataset as it was");
    text(&out)
}

#[test]
fn artillery_endpoints_import_as_the_tools_labels_and_reach_the_pages() {
    let root = tempfile::tempdir().unwrap();
    let dataset = root.path().join("d");
    std::fs::create_dir(&dataset).unwrap();
    // One endpoint is the whole run: no table of one row.
    import(&dataset, "one", "artillery/one-endpoint.json", "artillery");
    assert!(!dataset.join("tool_labels.csv").exists(), "a one-endpoint report writes no tool_labels.csv");
    import(&dataset, "art", "artillery/report.json", "artillery");
    // aggregate.summaries."plugins.metrics-by-endpoint.response_time./…" and its codes counters,
    // as the file holds them (/missing's 500 404s are failures here, not Artillery's errors).
    let s = |v: &str| v.to_string();
    let art = tool_labels_of(&dataset, "art");
    assert_eq!(art["/missing"], (500, 500, s("2"), s("61"), s("113.3"), s("267")));
    assert_eq!(art["/page.html"], (500, 0, s("15"), s("67.4"), s("106.7"), s("129")));
    assert!(tool_labels_of(&dataset, "one").is_empty());
    import(&dataset, "json", "locust/labels.json", "locust");

    let check = analyze().arg("check").arg(&dataset).output().unwrap();
    assert!(check.status.success(), "{}", text(&check));
    let out = root.path().join("out");
    let report = analyze().arg("report").arg(&dataset).arg("--out").arg(&out).output().unwrap();
    assert!(report.status.success(), "{}", text(&report));
    let page = std::fs::read_to_string(out.join("runs/art.html")).unwrap();
    assert!(page.contains("<th scope=\"row\">&#x2F;page.html</th>"), "the run page shows Artillery's endpoints");
    assert!(page.contains("<td data-label=\"p95 (ms)\" class=\"num\">67.4</td>"), "its p95 as Artillery printed it");
    assert!(page.contains("These are Artillery&#x27;s own figures"), "named as the project spells it");
    assert!(page.contains("counts a 404 or a 500 as a response"), "and its failures said to be ours, not Artillery's errors");
    // Locust's bucket values are whole ms: shown as printed, not at the run's decimals.
    let locust = std::fs::read_to_string(out.join("runs/json.html")).unwrap();
    let row = locust.lines().find(|l| l.contains("<th scope=\"row\">GET &#x2F;page.html</th>")).unwrap();
    assert!(row.contains("<td data-label=\"p50 (ms)\" class=\"num\">4</td>"), "{row}");
    assert!(locust.contains("These are Locust&#x27;s own figures"));
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(index.contains(">67.4</td>") && !index.contains(">4.00</td>"), "the report page's table too");
}

#[test]
fn artillery_endpoints_that_do_not_add_up_are_refused_at_the_counter_and_change_nothing() {
    let root = tempfile::tempdir().unwrap();
    let dataset = root.path().join("d");
    std::fs::create_dir(&dataset).unwrap();
    import(&dataset, "first", "artillery/report.json", "artillery");
    // One of /page.html's 200s dropped from the plugin's counters, in the aggregate and its period.
    let key = "\"plugins.metrics-by-endpoint./page.html.codes.200\"";
    let edited = std::fs::read_to_string(fixture("artillery/report.json"))
        .unwrap()
        .replacen(&format!("{key}: 500"), &format!("{key}: 499"), 1)
        .replacen(&format!("{key}: 160"), &format!("{key}: 159"), 1);
    let file = root.path().join("edited.json");
    std::fs::write(&file, edited).unwrap();
    let said = refused_import(&dataset, &file, "artillery");
    // Refused at the aggregate's "http.codes.200" (line 7, column 7).
    assert!(said.contains("edited.json:7:7") && said.contains("add up to 499"), "{said}");
}

/// A fixed LCG, so the dataset is the same on every run of the test.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// Nearest rank: the ceil(p·n/100)-th smallest, written out plainly.
fn nearest_rank(sorted: &[f64], p: f64) -> f64 {
    let rank = ((p * sorted.len() as f64) / 100.0).ceil().max(1.0) as usize;
    sorted[rank - 1]
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

#[test]
fn per_label_statistics_equal_a_plain_computation_from_the_rows() {
    let root = tempfile::tempdir().unwrap();
    let dataset = root.path().join("steps");
    std::fs::create_dir(&dataset).unwrap();
    let labels = ["get-page", "post-form", "get-page-again", "<script>alert(1)</script>"];
    let runs = ["r1", "r2", "r3"];
    let mut rows = String::from("run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes,label\n");
    // Per (run, label): requests, errors, 2xx latencies.
    let mut expected: BTreeMap<(&str, &str), (u64, u64, Vec<f64>)> = BTreeMap::new();
    let mut random = Lcg(23);
    for run in runs {
        for seq in 0..400u64 {
            let label = labels[random.next(labels.len() as u64 - 1) as usize + usize::from(seq % 97 == 0)];
            let status = match random.next(25) {
                0 => 502,
                1 => 0,
                _ => 200,
            };
            let latency = (1 + random.next(300_000)) as f64 / 1000.0;
            let entry = expected.entry((run, label)).or_default();
            entry.0 += 1;
            if status == 200 {
                entry.2.push(latency);
            } else {
                entry.1 += 1;
            }
            let latency = if status == 0 { String::new() } else { latency.to_string() };
            let t = seq * 5;
            rows.push_str(&format!("{run},{seq},{t},{t},{latency},{status},10,\"{label}\"\n"));
        }
    }
    std::fs::write(dataset.join("requests.csv"), rows).unwrap();
    std::fs::write(
        dataset.join("runs.csv"),
        "run_id,server,repetition,started_at_utc,status\nr1,s,1,2026-12-01T00:00:00Z,ok\nr2,s,2,2026-12-01T00:01:00Z,ok\nr3,s,3,2026-12-01T00:02:00Z,ok\n",
    )
    .unwrap();
    let out = root.path().join("out");
    let report = analyze().arg("report").arg(&dataset).arg("--out").arg(&out).output().unwrap();
    assert!(report.status.success(), "{}", text(&report));
    let summary: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();

    let mut per_condition: BTreeMap<&str, Vec<[f64; 3]>> = BTreeMap::new();
    let mut requests_of: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    for run in summary["runs"].as_array().unwrap() {
        let id = run["run_id"].as_str().unwrap();
        let got = run["labels"].as_array().unwrap();
        let names: Vec<&str> = got.iter().map(|l| l["label"].as_str().unwrap()).collect();
        let mut wanted: Vec<&str> = labels.iter().copied().filter(|l| expected.contains_key(&(id, *l))).collect();
        wanted.sort();
        let mut sorted_names = names.clone();
        sorted_names.sort();
        assert_eq!(sorted_names, wanted, "{id}: every label it has, once");
        for entry in got {
            let label = entry["label"].as_str().unwrap();
            let (requests, errors, latencies) = &expected[&(id, label)];
            let mut sorted = latencies.clone();
            sorted.sort_by(f64::total_cmp);
            requests_of.entry(label).or_default().push(*requests as f64);
            assert_eq!(entry["requests"], *requests, "{id} {label}");
            assert_eq!(entry["errors"], *errors, "{id} {label}");
            assert!(close(entry["error_share"].as_f64().unwrap(), *errors as f64 / *requests as f64), "{id} {label}");
            if sorted.is_empty() {
                assert_eq!(entry["percentiles_ms"], serde_json::json!({}), "{id} {label}: no 2xx response, no percentile");
                assert!(entry["max_ms"].is_null());
                continue;
            }
            for p in [50.0, 95.0, 99.0] {
                let key = format!("{p}");
                assert_eq!(entry["percentiles_ms"][&key].as_f64().unwrap(), nearest_rank(&sorted, p), "{id} {label} p{p}");
            }
            assert_eq!(entry["max_ms"].as_f64().unwrap(), *sorted.last().unwrap(), "{id} {label}");
            per_condition.entry(label).or_default().push([
                nearest_rank(&sorted, 50.0),
                nearest_rank(&sorted, 95.0),
                nearest_rank(&sorted, 99.0),
            ]);
        }
    }
    // Runs with the most requests of a label first: get-page, post-form and get-page-again are
    // drawn alike, the markup label only every 97th request.
    let condition = &summary["conditions"][0];
    let got = condition["labels"].as_array().unwrap();
    assert_eq!(got.last().unwrap()["label"], "<script>alert(1)</script>", "the fewest requests last");
    for entry in got {
        let label = entry["label"].as_str().unwrap();
        let values = per_condition.get(label).cloned().unwrap_or_default();
        for (i, key) in ["50", "95", "99"].iter().enumerate().filter(|_| !values.is_empty()) {
            let mut of_runs: Vec<f64> = values.iter().map(|v| v[i]).collect();
            let spread = &entry["percentiles_ms"][key];
            assert!(close(spread["median"].as_f64().unwrap(), median(&mut of_runs)), "{label} p{key}");
            assert_eq!(spread["min"].as_f64().unwrap(), of_runs[0], "{label} p{key}");
            assert_eq!(spread["max"].as_f64().unwrap(), *of_runs.last().unwrap(), "{label} p{key}");
            assert_eq!(spread["n"], values.len(), "{label}");
        }
        let mut requests = requests_of[label].clone();
        requests.resize(runs.len(), 0.0);
        assert!(close(entry["requests"]["median"].as_f64().unwrap(), median(&mut requests)), "{label} requests");
    }

    // The label is data: escaped on the pages, never markup.
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(html.contains(">&lt;script&gt;alert(1)&lt;&#x2F;script&gt;</td>"), "the label in the report's table, escaped");
    assert!(!html.contains("<script>alert(1)"));
    let run_page = std::fs::read_to_string(out.join("runs/r1.html")).unwrap();
    assert!(run_page.contains("<th scope=\"row\">get-page</th>") && !run_page.contains("<script>alert(1)"), "the run page's table");
}
