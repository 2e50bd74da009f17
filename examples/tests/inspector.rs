//! `boids --inspect`: the example serves the inspector, and a real browser
//! (headless Chromium, where installed) renders the page from it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Generous, so a loaded machine never fails a test; bounded, so a hang does.
const WAIT: Duration = Duration::from_secs(120);

/// The boids example's binary, which `cargo test` builds beside the tests.
fn boids_binary() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let profile = exe.parent()?.parent()?;
    let binary = profile
        .join("examples")
        .join(format!("boids{}", std::env::consts::EXE_SUFFIX));
    binary.exists().then_some(binary)
}

/// The example, killed when dropped.
struct Boids {
    child: Child,
    addr: SocketAddr,
}

impl Boids {
    fn start(binary: &Path, boids: &str) -> Self {
        let mut child = Command::new(binary)
            .args(["--inspect", "127.0.0.1:0", "--boids", boids, "--seed", "3"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the boids example starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .expect("boids prints a line");
        let url = line
            .trim()
            .strip_prefix("inspector: http://")
            .unwrap_or_else(|| panic!("boids printed {line:?}, not the inspector's URL"));
        let addr = url
            .trim_end_matches('/')
            .parse()
            .expect("an address in the URL");
        Self { child, addr }
    }

    fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    fn get(&self, path: &str) -> serde_json::Value {
        let mut stream = TcpStream::connect(self.addr).unwrap();
        stream.set_read_timeout(Some(WAIT)).unwrap();
        write!(stream, "GET {path} HTTP/1.1\r\nHost: {}\r\n\r\n", self.addr).unwrap();
        let mut reply = String::new();
        stream.read_to_string(&mut reply).unwrap();
        let (head, body) = reply.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 200"), "{head}\n{body}");
        serde_json::from_str(body).unwrap()
    }
}

impl Drop for Boids {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn boids_with_inspect_prints_the_url_and_serves_its_world() {
    let Some(binary) = boids_binary() else {
        eprintln!(
            "skipped: the boids example is not built (cargo build -p examples --example boids)"
        );
        return;
    };
    let boids = Boids::start(&binary, "300");
    let world = boids.get("/api/world");
    assert!(world["entities"].as_u64().unwrap() >= 300, "{world}");
    assert_eq!(
        world["writes"], true,
        "the demo lets the page pause and despawn"
    );
    let table = boids.get("/api/entities?with=Boid&per_page=1");
    assert_eq!(table["total"], 300);
    let stages: Vec<String> = boids.get("/api/schedule")["stages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["stage"].as_str().unwrap().to_owned())
        .collect();
    assert!(stages.iter().any(|s| s == "FixedUpdate"), "{stages:?}");
}

#[test]
fn inspect_runs_until_stopped_unless_frames_are_given() {
    use examples::boids::cli::{Command, Options};
    let parse = |args: &[&str]| match Options::parse(args.iter().map(|a| a.to_string())) {
        Ok(Command::Run(options)) => options,
        other => panic!("{args:?} gave {other:?}"),
    };
    let inspecting = parse(&["--inspect", "127.0.0.1:7878"]);
    assert_eq!(inspecting.inspect.as_deref(), Some("127.0.0.1:7878"));
    assert_eq!(inspecting.frames, u64::MAX);
    assert_eq!(
        parse(&["--frames", "10", "--inspect=127.0.0.1:0"]).frames,
        10
    );
    assert_eq!(parse(&[]).inspect, None);
    assert!(
        Options::parse(["--inspect".to_string()]).is_err(),
        "the address is required"
    );
}

/// The browser on this machine, if any.
fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .flat_map(|name| std::env::split_paths(&path).map(move |dir| dir.join(name)))
        .find(|candidate| candidate.is_file())
}

/// The page as the browser rendered it, after `budget_ms` of the page's
/// own (virtual) time: several rounds of its polling.
fn rendered_dom(browser: &Path, url: &str, budget_ms: u32) -> String {
    let profile =
        std::env::temp_dir().join(format!("ecs-inspector-chromium-{}", std::process::id()));
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--no-first-run",
            "--disable-component-update",
            "--disable-sync",
            &format!("--user-data-dir={}", profile.display()),
            &format!("--virtual-time-budget={budget_ms}"),
            "--dump-dom",
            url,
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromium starts");
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut dom = String::new();
        let _ = stdout.read_to_string(&mut dom);
        dom
    });
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > WAIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish within {WAIT:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = std::fs::remove_dir_all(&profile);
    reader.join().unwrap()
}

/// The text inside the element with `id`, from a DOM dump.
fn text_of<'a>(dom: &'a str, id: &str) -> &'a str {
    let open = format!("id=\"{id}\">");
    let start = dom
        .find(&open)
        .unwrap_or_else(|| panic!("no #{id} in the page"))
        + open.len();
    let end = dom[start..].find('<').unwrap() + start;
    &dom[start..end]
}

#[test]
fn a_headless_browser_renders_the_inspector_page_from_boids() {
    let Some(browser) = chromium() else {
        eprintln!(
            "skipped: no Chromium on PATH (chromium, chromium-browser or google-chrome); \
             install it with `apt-get install chromium` to run the browser test"
        );
        return;
    };
    let Some(binary) = boids_binary() else {
        eprintln!(
            "skipped: the boids example is not built (cargo build -p examples --example boids)"
        );
        return;
    };
    let boids = Boids::start(&binary, "500");
    let dom = rendered_dom(&browser, &boids.url(), 4000);

    let count = boids.get("/api/world")["entities"].as_u64().unwrap();
    assert_eq!(
        text_of(&dom, "entity-count"),
        count.to_string(),
        "the header shows the entity count"
    );
    let frame: u64 = text_of(&dom, "frame").parse().expect("a frame number");
    assert!(frame >= 1);

    let table = &dom[dom.find("id=\"entities\"").expect("the entity table")..];
    let first_row = &table[table.find("<tr data-entity=").expect("a row in the table")..];
    let first_row = &first_row[..first_row.find("</tr>").unwrap()];
    assert!(
        first_row.contains("Position(Vec2 { x: "),
        "a row shows a Position value: {first_row}"
    );

    let schedule = &dom[dom.find("id=\"schedule\"").expect("the schedule view")..];
    for stage in ["First ·", "FixedUpdate ·", "Last ·"] {
        assert!(schedule.contains(stage), "the schedule shows {stage:?}");
    }
    assert!(schedule.contains("batch 1"), "and its batches");
    assert!(dom.contains("steer"), "the systems are listed");
}
