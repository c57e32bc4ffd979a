use super::*;

const EXAMPLE: &str = include_str!("../../../plans/static-file-servers.toml");

fn parse(text: &str) -> CommandPlan {
    CommandPlan::from_toml(text).unwrap_or_else(|e| panic!("{e}"))
}

/// The problems of `text` as `key: message` lines.
fn problems(text: &str) -> Vec<String> {
    parse(text).validate().iter().map(ToString::to_string).collect()
}

fn condition(pairs: &[(&str, &str)]) -> Condition {
    Condition(pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect())
}

#[test]
fn the_worked_example_is_2_servers_by_2_concurrencies() {
    assert!(is_command(EXAMPLE));
    let plan = parse(EXAMPLE);
    assert_eq!(plan.validate(), []);
    assert_eq!(plan.factor_names(), ["server", "concurrency"]);
    let conditions: Vec<String> = plan.conditions().iter().map(ToString::to_string).collect();
    assert_eq!(
        conditions,
        [
            "server=nginx, concurrency=1",
            "server=nginx, concurrency=10",
            "server=http-server, concurrency=1",
            "server=http-server, concurrency=10"
        ]
    );
    assert_eq!(plan.x_factor(), "concurrency");
    assert_eq!(plan.server_names(), ["nginx", "http-server"]);
    let (name, server) = plan.server_of(&plan.conditions()[2]).unwrap();
    assert_eq!((name, server.ready()), ("http-server", Ready::Http("/".into())));
    assert_eq!(plan.servers["nginx"].stop_signal(), libc::SIGQUIT);
    let load = plan.load_of(&plan.conditions()[1]).unwrap();
    assert_eq!((load.tool, load.concurrency, load.requests, load.path.as_str()), (LoadTool::Hey, 10, Some(2000), "/index.html"));
}

#[test]
fn factors_keep_the_plans_order_and_levels_may_be_integers_or_text() {
    let plan = parse(
        "kind = \"command\"\ndataset = \"d\"\ntitle = { en = \"t\", ja = \"t\" }\ndescription = { en = \"d\", ja = \"d\" }\n\
         seed = 1\nrepetitions = 1\n[factors]\nzeta = [3, 1]\nalpha = \"one\"\nmid = [\"b\", \"a\"]\n\
         [servers.s]\ncommand = [\"srv\", \"{port}\", \"{zeta}\"]\n[load]\ntool = \"hey\"\nrequests = 10\n",
    );
    assert_eq!(plan.validate(), []);
    assert_eq!(
        plan.factors.0,
        [("zeta".into(), vec!["3".into(), "1".into()]), ("alpha".into(), vec!["one".into()]), ("mid".into(), vec!["b".into(), "a".into()])]
    );
    assert_eq!(plan.conditions()[1], condition(&[("zeta", "3"), ("alpha", "one"), ("mid", "a")]));
    assert_eq!(plan.x_factor(), "mid");
    assert_eq!(plan.server_of(&plan.conditions()[0]).map(|(n, _)| n), Some("s"), "one server runs every condition");
}

#[test]
fn exclude_rules_take_conditions_out_of_the_product() {
    let text = EXAMPLE.replace("[factor_labels]", "[[exclude]]\nserver = \"http-server\"\nconcurrency = [10]\n\n[factor_labels]");
    let plan = parse(&text);
    assert_eq!(plan.validate(), []);
    assert_eq!(plan.conditions().len(), 3);
    assert!(!plan.conditions().contains(&condition(&[("server", "http-server"), ("concurrency", "10")])));
    assert_eq!(crate::plan::Plan::Command(plan).run_order().len(), 18);
}

#[test]
fn a_factor_used_but_not_declared_is_named_with_its_key() {
    let text = EXAMPLE.replace("\"--directory\", \"{run_dir}/www\"", "\"--directory\", \"{run_dir}/{docroot}\"");
    let p = problems(&text);
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(p[0].starts_with("servers.http-server.command[6]: {docroot} is not a factor declared under [factors]"), "{p:?}");
    assert!(p[0].contains("{concurrency}, {port}") && p[0].contains("write {{docroot}} for the text {docroot}"), "{p:?}");
    let text = EXAMPLE.replace("path = \"/index.html\"", "path = \"/{page}\"");
    assert_eq!(problems(&text), ["load.path: {page} is not a factor declared under [factors]"]);
}

#[test]
fn a_server_that_is_never_told_its_port_is_refused() {
    let text = EXAMPLE.replace("\"--bind\", \"127.0.0.1\", \"--directory\", \"{run_dir}/www\", \"{port}\"", "\"8000\"");
    assert_eq!(
        problems(&text),
        ["servers.http-server.command: never says {port}: measure starts every run's server on a free port and must tell it which (in its command, env or files)"]
    );
    // In a file it counts: nginx is told its port in its config.
    let plan = parse(EXAMPLE);
    assert!(!plan.servers["nginx"].command.iter().any(|a| a.contains("{port}")));
}

#[test]
fn every_problem_is_collected() {
    let text = EXAMPLE
        .replace("repetitions = 6", "repetitions = 0")
        .replace("server = [\"nginx\", \"http-server\"]", "server = [\"nginx\", \"http-server\", \"caddy\"]")
        .replace("stop_signal = \"QUIT\"", "stop_signal = \"STOP\"")
        .replace("ready = \"/\"\nversion = [\"/usr/bin/python3\"", "ready = \"index.html\"\nversion = [\"/usr/bin/python3\"");
    assert_eq!(
        problems(&text),
        [
            "repetitions: must be positive (1 to 1000 runs)",
            "factors.server[2]: \"caddy\" is not defined under [servers]",
            "servers.http-server.ready: must be \"tcp\" or a path that answers with a 2xx status, such as \"/health\"",
            "servers.nginx.stop_signal: must be TERM, INT, QUIT, HUP, USR1, USR2, WINCH or KILL",
        ]
    );
}

#[test]
fn the_server_factor_must_match_the_servers() {
    let text = EXAMPLE.replace("server = [\"nginx\", \"http-server\"]", "server = [\"nginx\"]");
    assert_eq!(problems(&text), ["servers.http-server: is not a level of factors.server, so no run would start it (a typo?)"]);
    let text = EXAMPLE.replace("server = [\"nginx\", \"http-server\"]\n", "");
    assert_eq!(problems(&text), ["factors: the plan defines 2 servers: list them as factors.server = [...] to say which runs when"]);
}

#[test]
fn each_tool_takes_what_it_can_send() {
    let with_load =
        |load: &str| EXAMPLE.replace("tool = \"hey\"\npath = \"/index.html\"\nconcurrency = \"{concurrency}\"\nrequests = 2000", load);
    assert_eq!(problems(&with_load("tool = \"wrk\"\nrequests = 100")), ["load.requests: wrk does not take `requests`"]);
    assert_eq!(problems(&with_load("tool = \"wrk\"\nduration_s = 2\nconcurrency = \"{concurrency}\"")), Vec::<String>::new());
    assert_eq!(problems(&with_load("tool = \"ab\"\nduration_s = 2")), ["load.requests: ab needs `requests`"]);
    assert_eq!(problems(&with_load("tool = \"open-loop\"\nrequests = 100")), ["load.rate: open-loop needs `rate`"]);
    assert_eq!(
        problems(&with_load("tool = \"open-loop\"\nrate = 50\nduration_s = 2\nconcurrency = \"{concurrency}\"")),
        ["load.concurrency: open-loop does not take `concurrency`"]
    );
    assert_eq!(
        problems(&with_load("tool = \"hey\"\nrequests = 100\nduration_s = 2")),
        ["load: hey takes either `requests` or `duration_s`, one of the two"]
    );
    assert_eq!(
        problems(&with_load("tool = \"hey\"\nconcurrency = \"{concurrency}\"\nrequests = 25")),
        ["load.requests: hey gives each of its 10 clients requests / concurrency, so 25 requests would not all be sent for server=nginx, concurrency=10: make requests a multiple of the concurrency"]
    );
    assert_eq!(problems(&with_load("tool = \"vegeta\"\nrate = 100")), ["load.duration_s: vegeta needs `duration_s`"]);
    let err = CommandPlan::from_toml(&with_load("tool = \"jmeter\"\nrequests = 10")).unwrap_err();
    assert!(err.message().contains("unknown variant `jmeter`"), "{err}");
}

#[test]
fn a_load_setting_may_name_a_factor_and_must_resolve_to_a_count() {
    let text = EXAMPLE.replace("concurrency = [1, 10]", "concurrency = [1, \"ten\"]");
    assert_eq!(problems(&text), ["load.concurrency: \"ten\" (for server=nginx, concurrency=ten) is not a whole number"]);
    let plan = parse(&EXAMPLE.replace("requests = 2000", "requests = \"{concurrency}00\""));
    assert_eq!(plan.validate(), []);
    assert_eq!(plan.load_of(&plan.conditions()[1]).unwrap().requests, Some(1000));
}

#[test]
fn unknown_keys_are_toml_errors_with_a_place() {
    let err = CommandPlan::from_toml(&EXAMPLE.replace("stop_signal = \"QUIT\"", "stop_signl = \"QUIT\"")).unwrap_err();
    assert!(err.message().contains("unknown field `stop_signl`"), "{err}");
    assert!(err.span().is_some());
}

#[test]
fn exclude_rules_must_name_factors_and_levels() {
    let text = EXAMPLE.replace("[factor_labels]", "[[exclude]]\nserver = \"caddy\"\nworkers = 2\n\n[factor_labels]");
    assert_eq!(
        problems(&text),
        [
            "exclude[0].server: \"caddy\" is not a level of server",
            "exclude[0].workers: \"workers\" is not a factor",
            "exclude[0]: excludes no condition (a typo?)"
        ]
    );
}

#[test]
fn reserved_names_and_bad_levels_are_refused() {
    let text = EXAMPLE.replace("concurrency = [1, 10]", "concurrency = [1, 10]\nport = [1]\n\"bad name\" = [\"x\", \"x\", \" y\"]");
    assert_eq!(
        problems(&text),
        [
            "factors.port: \"port\" is measure's own name; call the factor otherwise",
            "factors.\"bad name\": \"bad name\" cannot be a factor's name: use letters, digits and '_', starting with a letter",
            "factors.\"bad name\"[1]: \"x\" is listed twice",
            "factors.\"bad name\"[2]: a level may not start or end with a space",
        ]
    );
    // runs.csv's own columns, `round` of a plan in rounds among them, are no factors' names either.
    for name in ["round", "recipe"] {
        let text = EXAMPLE.replace("concurrency = [1, 10]", &format!("concurrency = [1, 10]\n{name} = [1, 2]"));
        assert_eq!(problems(&text), [format!("factors.{name}: \"{name}\" is measure's own name; call the factor otherwise")]);
    }
}

#[test]
fn levels_follow_the_names_rule_analyze_reads_runs_csv_with() {
    let long = "x".repeat(1025);
    let text = EXAMPLE
        .replace("concurrency = [1, 10]", &format!("concurrency = [1, 10]\nbuild = [\"a\\u202Eb\", \"c\\u001Bd\", \"{long}\", \"\"]"));
    assert_eq!(
        problems(&text),
        [
            "factors.build[0]: the level holds the bidirectional control \\u{202e}: a level reads as the characters it holds, so it has none",
            "factors.build[1]: the level holds the control character '\\u{1b}': a level is one line of text",
            "factors.build[2]: the level is 1025 bytes long, more than the 1024 a level may have",
            "factors.build[3]: the level is empty: a level has at least one character besides spaces",
        ]
    );
}

#[test]
fn the_estimate_uses_the_planned_load_when_it_is_known() {
    let plan = parse(EXAMPLE);
    assert!(!plan.load_length_known(), "hey -n: as fast as the server answers");
    assert_eq!(plan.estimated_run(), Duration::from_secs(15 + 2));
    let open = parse(&EXAMPLE.replace(
        "tool = \"hey\"\npath = \"/index.html\"\nconcurrency = \"{concurrency}\"\nrequests = 2000",
        "tool = \"open-loop\"\nrate = 100\nrequests = \"{concurrency}00\"",
    ));
    assert_eq!(open.validate(), []);
    assert!(open.load_length_known());
    assert_eq!(open.estimated_run(), Duration::from_secs(10 + 2), "1,000 requests at 100/s");
    assert_eq!(open.load_of(&open.conditions()[1]).unwrap().asked_requests(), Some(1000));
}

/// `EXAMPLE` with its `[load]` settings replaced by `load` (the timeouts stay).
fn with_load(load: &str) -> String {
    EXAMPLE.replace("tool = \"hey\"\npath = \"/index.html\"\nconcurrency = \"{concurrency}\"\nrequests = 2000", load)
}

#[test]
fn an_open_loop_duration_times_rate_past_2_to_the_64_is_refused_not_wrapped_to_no_request() {
    // 2^62 s at 4/s is 2^64 requests: wrapped, that was 0 requests, under the client's limit.
    let text = with_load("tool = \"open-loop\"\nrate = 4\nduration_s = 4611686018427387904");
    assert_eq!(problems(&text), ["load.duration_s: is 4611686018427387904; it must be 1 to 86400 seconds"]);
    let plan = parse(&with_load("tool = \"open-loop\"\nrate = 4\nduration_s = 10"));
    let load = plan.load_of(&plan.conditions()[0]).unwrap();
    assert_eq!(RunLoad { duration_s: Some(u64::MAX / 2), ..load }.asked_requests(), Some(u64::MAX), "saturates");
}

#[test]
fn every_number_is_bounded_at_its_key() {
    let text = EXAMPLE
        .replace("run_timeout_s = 60", "run_timeout_s = 9223372036854775807")
        .replace("requests = 2000", "requests = \"{concurrency}00000000\"");
    assert_eq!(
        problems(&text),
        [
            "load.run_timeout_s: is 9223372036854775807; it must be 1 to 86400 seconds",
            "load.requests: is 1000000000; it must be 1 to 100000000 requests (for server=nginx, concurrency=10)",
        ]
    );
    let text = EXAMPLE.replace("stop_signal = \"QUIT\"", "stop_signal = \"QUIT\"\nstop_grace_s = 601\nready_timeout_s = 0");
    assert_eq!(
        problems(&text),
        [
            "servers.nginx.ready_timeout_s: must be positive (1 to 600 seconds)",
            "servers.nginx.stop_grace_s: is 601; it must be 0 to 600 seconds"
        ]
    );
}

#[test]
fn a_run_bound_shorter_than_the_planned_load_is_refused() {
    let text = with_load("tool = \"wrk\"\nduration_s = 55\nconcurrency = \"{concurrency}\"");
    let p = problems(&text);
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(
        p[0].starts_with("load.run_timeout_s: 60 s would abort every run: the load of server=nginx, concurrency=1 lasts 55 s")
            && p[0].ends_with("request_timeout_s = 10 s more, so make it at least 65"),
        "{p:?}"
    );
    assert_eq!(problems(&with_load("tool = \"wrk\"\nduration_s = 50\nconcurrency = \"{concurrency}\"")), Vec::<String>::new());
    // A count at a rate is planned too: 1,000 requests at 10/s.
    let p = problems(&with_load("tool = \"open-loop\"\nrate = 10\nrequests = \"{concurrency}00\""));
    assert!(
        p[0].starts_with("load.run_timeout_s: 60 s would abort every run: the load of server=nginx, concurrency=10 lasts 100 s"),
        "{p:?}"
    );
}

#[test]
fn every_unknown_key_is_reported_at_once_with_its_place_and_the_rules_too() {
    let text = EXAMPLE
        .replace("stop_signal = \"QUIT\"", "stop_signl = \"QUIT\"")
        .replace("requests = 2000", "request = 2000\nrequests = 2000")
        .replace("seed = ", "sead = 1\nseed = ")
        .replace("run_timeout_s = 60", "run_timeout_s = 0");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("plan.toml");
    std::fs::write(&path, &text).unwrap();
    let err = crate::plan::Plan::load(&path).unwrap_err();
    let lines: Vec<String> = err.downcast_ref::<crate::input::BadInputs>().unwrap().0.iter().map(ToString::to_string).collect();
    let at = |needle: &str| text.lines().position(|l| l.starts_with(needle)).unwrap() + 1;
    let p = path.display();
    assert_eq!(lines.len(), 4, "{lines:?}");
    // Left out, the typos change nothing of the plan: its rules are checked too.
    assert_eq!(lines[3], format!("{p}:{}:1: load.run_timeout_s: must be positive (1 to 86400 seconds)", at("run_timeout_s")));
    assert!(lines[0].starts_with(&format!("{p}:{}:1: sead: unknown key (a typo?); expected one of `kind`", at("sead"))), "{lines:?}");
    assert!(lines[1].starts_with(&format!("{p}:{}:1: servers.nginx.stop_signl: unknown key (a typo?)", at("stop_signl"))), "{lines:?}");
    assert!(lines[2].starts_with(&format!("{p}:{}:1: load.request: unknown key (a typo?)", at("request ="))), "{lines:?}");
}

#[test]
fn code_names_what_records_the_measured_code() {
    let with_code = |code: &str| format!("{EXAMPLE}\n[code]\n{code}\n");
    let plan = parse(&with_code("revision = [\"git\", \"rev-parse\", \"HEAD\"]\nhash = [\"www\"]"));
    assert_eq!(plan.validate(), []);
    assert_eq!(plan.history_series(), Some(plan.title.en.as_str()));
    assert_eq!(parse(&with_code("hash = [\"www\"]")).history_series(), None, "no revision, no history");
    assert_eq!(
        problems(&with_code("revision = [\"git\", \"{port}\"]\nhash = [\"\"]\nseries = \"a/b\"")),
        [
            "code.revision[1]: runs once before the study: it cannot use placeholders",
            "code.hash[0]: must name a file or a folder",
            "code.series: \"a/b\" names the history (dataset.toml [history] series), so it must be one line of at most 200 bytes without a slash, a control character or a leading dot or space; set code.series",
        ]
    );
    assert_eq!(problems(&with_code("")), ["code: records nothing: give `revision` (a command printing it) or `hash` (files and folders)"]);
}

#[test]
fn an_open_loop_run_of_a_minute_at_5000_a_second_and_of_a_million_requests_is_planned() {
    // Refused while the client started a thread per request (at most 20,000 a run).
    use load::MAX_OPEN_LOOP_REQUESTS;
    let minute = with_load("tool = \"open-loop\"\nrate = 5000\nduration_s = 60").replace("run_timeout_s = 60", "run_timeout_s = 120");
    assert_eq!(problems(&minute), Vec::<String>::new());
    let million = with_load("tool = \"open-loop\"\nrate = 30000\nrequests = 1000000").replace("run_timeout_s = 60", "run_timeout_s = 120");
    assert_eq!(problems(&million), Vec::<String>::new());
    let plan = parse(&million);
    assert_eq!(plan.load_of(&plan.conditions()[0]).unwrap().asked_requests(), Some(1_000_000));
    let too_many = with_load(&format!("tool = \"open-loop\"\nrate = 30000\nrequests = {}", MAX_OPEN_LOOP_REQUESTS + 1));
    let p = problems(&too_many);
    assert!(
        p[0].starts_with(&format!(
            "load: {} requests for server=nginx, concurrency=1 is more than {MAX_OPEN_LOOP_REQUESTS}, the most one run of measure's open-loop client keeps",
            MAX_OPEN_LOOP_REQUESTS + 1
        )),
        "{p:?}"
    );
}

#[test]
fn keep_alive_is_the_open_loop_clients_choice_and_a_new_connection_per_request_its_default() {
    let of = |load: &str| {
        let plan = parse(&with_load(load));
        assert_eq!(plan.validate(), []);
        plan.load_of(&plan.conditions()[0]).unwrap().connection
    };
    assert_eq!(of("tool = \"open-loop\"\nrate = 50\nrequests = 100"), Connection::PerRequest);
    assert_eq!(of("tool = \"open-loop\"\nrate = 50\nrequests = 100\nkeep_alive = false"), Connection::PerRequest);
    assert_eq!(of("tool = \"open-loop\"\nrate = 50\nrequests = 100\nkeep_alive = true"), Connection::KeepAlive);
    assert_eq!(
        problems(&with_load("tool = \"hey\"\nrequests = 100\nkeep_alive = true")),
        ["load.keep_alive: hey does not take `keep_alive` (only measure's open-loop client does; hey keeps its own connections)"]
    );
    let typed = CommandPlan::from_toml(&with_load("tool = \"open-loop\"\nrate = 50\nrequests = 100\nkeep_alive = \"yes\"")).unwrap_err();
    assert!(typed.to_string().contains("keep_alive"), "{typed}");
}
