//! `ttt serve` over real HTTP: the server is started as a user starts it (on port 0, the port
//! read from the URL it prints) and spoken to through a small HTTP/1.1 client on a
//! `TcpStream`. The examples of docs/web.md are checked here too.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running `ttt serve`, stopped (SIGTERM, else killed) when dropped.
struct Server {
    child: Child,
    port: u16,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ttt"))
            .args(["serve", "--port", "0"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("ttt serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout is piped"))
            .read_line(&mut line)
            .expect("the URL line");
        let port = line
            .split("http://127.0.0.1:")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .and_then(|port| port.parse().ok())
            .unwrap_or_else(|| panic!("a URL on the first line: {line:?}"));
        assert!(
            line.starts_with("ttt serve: listening on http://127.0.0.1:"),
            "{line}"
        );
        Server { child, port }
    }

    fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect(("127.0.0.1", self.port)).expect("connects");
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .expect("a timeout");
        stream
    }

    /// `method target` with `extra` header lines, to the end of the answer.
    fn request(&self, method: &str, target: &str, extra: &str) -> Answer {
        let mut stream = self.connect();
        write!(
            stream,
            "{method} {target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n{extra}\r\n"
        )
        .expect("sends");
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).expect("reads the answer");
        Answer::parse(&raw)
    }

    /// `bytes` sent as they are, to the end of the answer.
    fn raw(&self, bytes: &[u8]) -> Answer {
        let mut stream = self.connect();
        stream.write_all(bytes).expect("sends");
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).expect("reads the answer");
        Answer::parse(&raw)
    }

    fn get(&self, target: &str) -> Answer {
        self.request("GET", target, "")
    }

    fn json(&self, target: &str) -> serde_json::Value {
        let answer = self.get(target);
        assert_eq!(answer.status, 200, "{target}: {}", answer.body);
        serde_json::from_str(&answer.body).unwrap_or_else(|e| panic!("{target}: {e}"))
    }

    /// The hints stream of `target`'s position, each line parsed.
    fn hints(&self, query: &str) -> Vec<serde_json::Value> {
        let answer = self.get(&format!("/api/hints?{query}"));
        assert_eq!(answer.status, 200, "{query}: {}", answer.body);
        assert_eq!(answer.header("content-type"), Some("application/x-ndjson"));
        answer
            .body
            .lines()
            .map(|line| serde_json::from_str(line).expect("a JSON line"))
            .collect()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // (The process may have ended already: a test stopped it.)
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .stderr(Stdio::null())
            .status();
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
    }
}

/// An HTTP answer: status, headers (names in lower case), body (chunks joined).
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Answer {
    fn parse(raw: &[u8]) -> Answer {
        let split = raw
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .expect("a header block");
        let head = String::from_utf8_lossy(&raw[..split]).into_owned();
        let mut lines = head.split("\r\n");
        let status = lines
            .next()
            .and_then(|l| l.split(' ').nth(1))
            .and_then(|s| s.parse().ok())
            .expect("a status line");
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
            .collect();
        let mut body = raw[split + 4..].to_vec();
        if headers
            .iter()
            .any(|(k, v)| k == "transfer-encoding" && v == "chunked")
        {
            body = dechunk(&body);
        }
        Answer {
            status,
            headers,
            body: String::from_utf8(body).expect("a UTF-8 body"),
        }
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The JSON error's `kind`, checking the error's shape on the way.
    fn error_kind(&self) -> String {
        assert_eq!(self.header("content-type"), Some("application/json"));
        let value: serde_json::Value = serde_json::from_str(&self.body).expect("a JSON error");
        assert_eq!(value["status"], self.status, "{}", self.body);
        assert!(value["error"].as_str().is_some_and(|e| !e.is_empty()));
        value["kind"].as_str().expect("a kind").to_owned()
    }
}

fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let end = raw
            .windows(2)
            .position(|w| w == b"\r\n")
            .expect("a chunk size");
        let size = usize::from_str_radix(std::str::from_utf8(&raw[..end]).unwrap().trim(), 16)
            .expect("a hexadecimal size");
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&raw[end + 2..end + 2 + size]);
        raw = &raw[end + 2 + size + 2..];
    }
}

#[test]
fn the_page_and_its_assets_are_served_from_the_binary() {
    let server = Server::start(&[]);
    for (path, kind, holds) in [
        ("/", "text/html", "/app.js"),
        ("/explain", "text/html", "/explain.js"),
        ("/app.js", "text/javascript", "/api/hints"),
        ("/explain.js", "text/javascript", "/api/explain"),
        ("/style.css", "text/css", ".hint.win"),
    ] {
        let answer = server.get(path);
        assert_eq!(answer.status, 200, "{path}");
        assert!(
            answer.header("content-type").unwrap().starts_with(kind),
            "{path}"
        );
        assert!(answer.body.contains(holds), "{path}");
        // No network at run time: nothing is loaded from another host.
        assert!(!answer.body.contains("https://"), "{path}");
    }
}

#[test]
fn a_position_is_its_moves_with_history_and_legal_moves() {
    let server = Server::start(&[]);
    let position = server.json("/api/position?game=connect-four&moves=4453");
    assert_eq!(
        position["board"],
        "......./......./......./......./...O.../..OXX.."
    );
    assert_eq!(position["to_move"], "X");
    assert_eq!(position["status"], "ongoing");
    let history = position["history"].as_array().unwrap();
    let texts: Vec<&str> = history
        .iter()
        .map(|p| p["moves"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["4", "44", "445", "4453"]);
    let legal = position["legal"].as_array().unwrap();
    assert_eq!(legal.len(), 7);
    assert_eq!(legal[2]["moves"], "44533");
    // Column 3 lands on the O played into it: row 4 from the top, so cell 4 * 7 + 2.
    assert_eq!(legal[2]["cell"], 30);
    // Cells as drawn without gravity; the default game is tic-tac-toe.
    let position = server.json("/api/position?moves=a1,b2,a2,c1,a3");
    assert_eq!(position["game"], "tic-tac-toe");
    assert_eq!(position["status"], "x-won");
    assert_eq!(position["winner"], "X");
    assert_eq!(position["lines"], serde_json::json!([[0, 3, 6]]));
    assert_eq!(position["legal"], serde_json::json!([]));
    let custom = server.json("/api/position?game=5%2C6%2C4%2Cgravity&moves=6");
    assert_eq!(custom["game"], "5,6,4,gravity");
    assert_eq!(custom["legal"].as_array().unwrap().len(), 6);
}

/// `ttt solve --game connect-four --json` on each position.
fn solve(positions: &[String]) -> Vec<serde_json::Value> {
    solve_game("connect-four", positions)
}

/// `ttt solve --game GAME --json` on each position.
fn solve_game(game: &str, positions: &[String]) -> Vec<serde_json::Value> {
    let mut args = vec!["solve", "--game", game, "--json"];
    args.extend(positions.iter().map(String::as_str));
    let output = common::run(Path::new("."), &args, b"");
    assert!(output.status.success());
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn connect_four_hints_are_ttt_solve_seen_from_the_mover() {
    let server = Server::start(&[]);
    let moves = "44444423333332";
    let events = server.hints(&format!("game=connect-four&moves={moves}"));
    assert_eq!(events[0]["event"], "start");
    assert_eq!(events.last().unwrap()["event"], "done");
    let pending = events[0]["pending"].as_array().unwrap().len();
    let hints: Vec<&serde_json::Value> = events.iter().filter(|e| e["event"] == "hint").collect();
    assert_eq!(hints.len(), pending);
    let children: Vec<String> = hints
        .iter()
        .map(|h| format!("{moves}{}", h["move"].as_str().unwrap()))
        .collect();
    let mut positions = children.clone();
    positions.push(moves.to_owned());
    let solved = solve(&positions);
    for (hint, child) in hints.iter().zip(&solved) {
        assert_eq!(hint["value"], child["value"], "{hint}");
        assert_eq!(hint["distance"], child["distance"].as_u64().unwrap() + 1);
        assert_eq!(hint["score"], -child["score"].as_i64().unwrap(), "{hint}");
    }
    let verdict = events.iter().find(|e| e["event"] == "verdict").unwrap();
    let parent = solved.last().unwrap();
    assert_eq!(verdict["value"], parent["value"]);
    assert_eq!(verdict["distance"], parent["distance"]);
    assert_eq!(verdict["score"], parent["score"]);
    assert_eq!(verdict["best_moves"], parent["best_moves"]);
    assert_eq!(verdict["words"], "draw with best play");
}

#[test]
fn tic_tac_toe_hints_come_from_the_core_tables_and_gomoku_gets_none() {
    let server = Server::start(&[]);
    let events = server.hints("game=tic-tac-toe&moves=a1");
    let verdict = events.iter().find(|e| e["event"] == "verdict").unwrap();
    assert_eq!(verdict["words"], "draw with best play");
    // After a corner, only the centre draws for O.
    let draws: Vec<&str> = events
        .iter()
        .filter(|e| e["event"] == "hint" && e["result"] == "draw")
        .map(|e| e["move"].as_str().unwrap())
        .collect();
    assert_eq!(draws, ["b2"]);
    // The core's tables say what the family solver says, finished games included.
    for moves in ["", "b2,a1", "a1,b1,a2,b2,a3", "a3,b2,c3,b3,b1,a1,a2,c2,c1"] {
        let events = server.hints(&format!("game=tic-tac-toe&moves={moves}"));
        let hints: Vec<&serde_json::Value> =
            events.iter().filter(|e| e["event"] == "hint").collect();
        let mut positions: Vec<String> = hints
            .iter()
            .map(|h| {
                let name = h["move"].as_str().unwrap();
                if moves.is_empty() {
                    name.to_owned()
                } else {
                    format!("{moves},{name}")
                }
            })
            .collect();
        positions.push(if moves.is_empty() {
            "-".to_owned()
        } else {
            moves.to_owned()
        });
        let solved = solve_game("tic-tac-toe", &positions);
        for (hint, child) in hints.iter().zip(&solved) {
            assert_eq!(hint["value"], child["value"], "{moves}: {hint}");
            assert_eq!(hint["distance"], child["distance"].as_u64().unwrap() + 1);
            assert_eq!(hint["score"], -child["score"].as_i64().unwrap(), "{hint}");
        }
        let verdict = events.iter().find(|e| e["event"] == "verdict").unwrap();
        let parent = solved.last().unwrap();
        for key in ["value", "distance", "score", "best_moves"] {
            assert_eq!(verdict[key], parent[key], "{moves}: {key}");
        }
    }
    let events = server.hints("game=gomoku&moves=h8");
    assert_eq!(events.len(), 3, "{events:?}");
    assert_eq!(events[1]["event"], "unsolved");
    assert_eq!(events[1]["action"], serde_json::Value::Null);
    assert!(
        events[1]["why"]
            .as_str()
            .unwrap()
            .contains("no time bound on gomoku")
    );
    assert!(!events.iter().any(|e| e["event"] == "hint"));
}

#[test]
fn every_level_plays_a_legal_move() {
    let server = Server::start(&[]);
    for level in ["easy", "medium", "hard", "perfect"] {
        let answer = server.json(&format!(
            "/api/move?game=tic-tac-toe&moves=b2,a1,c3&level={level}&seed=7"
        ));
        assert_eq!(answer["level"], level);
        let moves = answer["moves"].as_str().unwrap();
        let position = server.json(&format!("/api/position?game=tic-tac-toe&moves={moves}"));
        assert_eq!(position["plies"], 4, "{level}");
        if level == "perfect" {
            // O must block the diagonal's corner... or any drawing move: never a loss.
            let events = server.hints("game=tic-tac-toe&moves=b2,a1,c3");
            let hint = events
                .iter()
                .find(|e| e["event"] == "hint" && e["action"] == answer["action"])
                .unwrap();
            assert_eq!(hint["result"], "draw", "{answer}");
        }
    }
    // Perfect on Connect Four is the perfect player (no fallback, no note). After 4, 4, 3, 3,
    // 2, 2 X wins at once with 1 or 5 (three in a row on the bottom, both ends open).
    let answer = server.json("/api/move?game=connect-four&moves=443322&level=perfect");
    assert_eq!(answer["cut"], false, "{answer}");
    assert!(answer["note"].is_null(), "{answer}");
    let moves = answer["moves"].as_str().unwrap();
    assert!(moves == "4433221" || moves == "4433225", "{answer}");
    let position = server.json(&format!("/api/position?game=connect-four&moves={moves}"));
    assert_eq!(position["status"], "x-won", "{answer}");
}

#[test]
fn every_bad_request_is_a_4xx_json_error_naming_the_problem() {
    let server = Server::start(&[]);
    let cases: &[(&str, u16, &str, &str)] = &[
        ("/api/position?game=chess", 400, "unknown-game", "chess"),
        (
            "/api/position?game=connect-four&moves=1111111",
            400,
            "bad-moves",
            "move 7 plays column 1, which is full",
        ),
        (
            "/api/position?game=connect-four&moves=4x",
            400,
            "bad-moves",
            "bad character 'x' at index 1",
        ),
        (
            "/api/hints?game=tic-tac-toe&moves=b2,b2",
            400,
            "bad-moves",
            "move 2 plays b2, which is taken",
        ),
        (
            "/api/position?game=tic-tac-toe&moves=XO./.../...",
            400,
            "bad-moves",
            "a board is no list of moves",
        ),
        ("/api/position?moves=%FF", 400, "bad-query", "not UTF-8"),
        ("/api/position?moves=%G1", 400, "bad-query", "bad escape"),
        ("/api/position?colour=red", 400, "bad-query", "colour"),
        ("/api/position?moves=a&moves=b", 400, "bad-query", "twice"),
        (
            "/api/move?level=grandmaster",
            400,
            "bad-level",
            "grandmaster",
        ),
        (
            "/api/move?game=gomoku&level=perfect",
            400,
            "bad-level",
            "no time bound",
        ),
        ("/api/move?seed=-1", 400, "bad-seed", "whole number"),
        (
            "/api/move?moves=a1,b1,a2,b2,a3",
            422,
            "game-over",
            "the game is over",
        ),
        ("/api/explain?board=XXZ", 400, "bad-board", "XXZ"),
        (
            "/api/explain?board=.........&cell=9&mark=O",
            400,
            "bad-cell",
            "0 to 8",
        ),
        ("/api/explain?cell=1&mark=Q", 400, "bad-mark", "Q"),
        ("/api/nothing", 404, "not-found", "/api/nothing"),
        ("/favicon.ico", 404, "not-found", "favicon"),
    ];
    for &(target, status, kind, names) in cases {
        let answer = server.get(target);
        assert_eq!(answer.status, status, "{target}: {}", answer.body);
        assert_eq!(answer.error_kind(), kind, "{target}");
        assert!(answer.body.contains(names), "{target}: {}", answer.body);
    }
    let long = format!("/api/position?moves={}", "4".repeat(5000));
    let answer = server.get(&long);
    assert_eq!(answer.status, 414);
    assert_eq!(answer.error_kind(), "too-long");
    let answer = server.request("POST", "/api/position", "Content-Length: 0\r\n");
    assert_eq!(answer.status, 405);
    assert_eq!(answer.error_kind(), "method-not-allowed");
    assert_eq!(answer.header("allow"), Some("GET, HEAD"));
    let answer = server.request("GET", "/api/games", "Content-Length: 100000\r\n");
    assert_eq!(answer.status, 413);
    assert_eq!(answer.error_kind(), "too-large");
    // Raw bytes outside ASCII in the target, UTF-8 or not, get JSON errors too.
    let answer = server.get("/api/\u{e9}t\u{e9}");
    assert_eq!(answer.status, 404, "{}", answer.body);
    assert_eq!(answer.error_kind(), "not-found");
    assert!(
        answer.body.contains("/api/%C3%A9t%C3%A9"),
        "{}",
        answer.body
    );
    let answer = server.raw(b"GET /api/\xff\xfe HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    assert_eq!(answer.status, 404, "{}", answer.body);
    assert_eq!(answer.error_kind(), "not-found");
    let answer = server
        .raw(b"GET /api/position?moves=\xff HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    assert_eq!(answer.status, 400, "{}", answer.body);
    assert_eq!(answer.error_kind(), "bad-query");
    assert!(answer.body.contains("not UTF-8"), "{}", answer.body);
    let answer = server.get("/api/position?game={tic-tac-toe}");
    assert_eq!(answer.status, 400, "{}", answer.body);
    assert_eq!(answer.error_kind(), "unknown-game");
    // The server is still there after all of that.
    assert_eq!(server.get("/api/games").status, 200);
}

// ---------------------------------------------------------------- ultimate

#[test]
fn ultimate_is_played_to_its_end_through_the_api_by_every_level() {
    let server = Server::start(&[]);
    let games = server.json("/api/games");
    let ultimate = games
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["game"] == "ultimate")
        .expect("ultimate among the games");
    assert_eq!(ultimate["kind"], "ultimate");
    let levels: Vec<(&str, &str)> = ultimate["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["name"].as_str().unwrap(), l["player"].as_str().unwrap()))
        .collect();
    assert_eq!(
        levels,
        [
            ("easy", "random"),
            ("medium", "heuristic"),
            ("hard", "mcts:10000")
        ]
    );
    assert!(
        ultimate["unsolvable"]
            .as_str()
            .unwrap()
            .contains("unsolved")
    );
    // X easy against O medium to the end, with one hard (mcts) move in the middle: every
    // engine move is one of the legal moves the position listed, and the position's moves
    // text grows by it.
    let mut moves = String::new();
    let mut plies = 0;
    loop {
        let position = server.json(&format!("/api/position?game=ultimate&moves={moves}"));
        assert_eq!(position["plies"], plies);
        assert_eq!(position["moves"], moves.as_str());
        let legal = position["legal"].as_array().unwrap();
        if position["status"] != "ongoing" {
            assert!(legal.is_empty());
            assert!(["x-won", "o-won", "draw"].contains(&position["status"].as_str().unwrap()));
            assert_eq!(position["to_move"], serde_json::Value::Null);
            break;
        }
        // The boards the mover may play in are those of the legal moves.
        let playable: Vec<u64> = position["boards"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|b| b["playable"] == true)
            .map(|b| b["board"].as_u64().unwrap())
            .collect();
        let mut of_legal: Vec<u64> = legal
            .iter()
            .map(|m| m["action"].as_u64().unwrap() / 9)
            .collect();
        of_legal.dedup();
        assert_eq!(playable, of_legal, "{moves}");
        if let Some(board) = position["next_board"].as_u64() {
            assert_eq!(playable, [board]);
        }
        let level = match plies {
            10 => "hard",
            n if n % 2 == 0 => "easy",
            _ => "medium",
        };
        let answer = server.json(&format!(
            "/api/move?game=ultimate&moves={moves}&level={level}&seed=3"
        ));
        let next = answer["moves"].as_str().unwrap().to_owned();
        assert!(
            legal.iter().any(|m| m["moves"] == next.as_str()),
            "{level} at {moves}: {answer}"
        );
        if level == "hard" {
            assert!(answer["player"].as_str().unwrap().starts_with("mcts"));
            assert!(answer["playouts"].as_u64().unwrap() > 0, "{answer}");
        }
        moves = next;
        plies += 1;
        assert!(plies <= 81);
    }
    // The finished game: no move to play.
    let answer = server.get(&format!("/api/move?game=ultimate&moves={moves}"));
    assert_eq!(answer.status, 422);
    assert_eq!(answer.error_kind(), "game-over");
}

#[test]
fn an_ultimate_position_shows_its_boards_in_the_grid() {
    let server = Server::start(&[]);
    let position = server.json("/api/position?game=ultimate&moves=4:4,4:0");
    assert_eq!(
        position["board"],
        "........./........./........./...O...../....X..../........./........./........./........."
    );
    assert_eq!(position["to_move"], "X");
    assert_eq!(position["next_board"], 0);
    let legal = position["legal"].as_array().unwrap();
    assert_eq!(legal.len(), 9);
    // 0:3 is row 1, column 0 of the grid; its moves text appends it.
    assert_eq!(legal[3]["move"], "0:3");
    assert_eq!(legal[3]["cell"], 9);
    assert_eq!(legal[3]["moves"], "4:4,4:0,0:3");
    // O wins board 0 (0:2, 0:4, 0:6); X's 2:0 then sends O to that closed board, so O plays
    // in any open board.
    let won = server
        .json("/api/position?game=ultimate&moves=0:0,0:3,3:0,0:4,4:0,0:6,6:0,0:1,1:0,0:2,2:0");
    assert_eq!(won["boards"][0]["status"], "o-won");
    assert_eq!(won["to_move"], "O");
    assert_eq!(won["next_board"], serde_json::Value::Null);
    assert_eq!(won["boards"][0]["playable"], false);
    assert_eq!(won["boards"][1]["playable"], true);
}

#[test]
fn ultimate_hints_say_the_game_is_unsolved_and_give_no_values() {
    let server = Server::start(&[]);
    let events = server.hints("game=ultimate&moves=4:4");
    let kinds: Vec<&str> = events
        .iter()
        .map(|e| e["event"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["start", "unsolved", "done"]);
    assert_eq!(events[0]["pending"].as_array().unwrap().len(), 8);
    assert_eq!(events[1]["action"], serde_json::Value::Null);
    assert!(events[1]["why"].as_str().unwrap().contains("unsolved"));
}

#[test]
fn bad_ultimate_requests_are_4xx_json_errors_naming_the_problem() {
    let server = Server::start(&[]);
    let cases: &[(&str, u16, &str, &str)] = &[
        (
            "/api/position?game=ultimate&moves=4:4,0:0",
            400,
            "bad-moves",
            "move 2 (0:0): move 0:0 is in board 0, but the last move sends the mover to board 4",
        ),
        (
            "/api/position?game=ultimate&moves=4:4,4:4",
            400,
            "bad-moves",
            "move 2 (4:4)",
        ),
        (
            "/api/position?game=ultimate&moves=9:0",
            400,
            "bad-moves",
            "0 to 8",
        ),
        (
            "/api/hints?game=ultimate&moves=44",
            400,
            "bad-moves",
            "is not B:C",
        ),
        (
            "/api/move?game=ultimate&level=perfect",
            400,
            "bad-level",
            "unsolved",
        ),
        (
            "/api/move?game=ultimate&level=alphabeta",
            400,
            "bad-level",
            "the levels of ultimate are easy (random), medium (heuristic) and hard",
        ),
        (
            "/api/move?game=ultimate&seed=x",
            400,
            "bad-seed",
            "whole number",
        ),
    ];
    for &(target, status, kind, names) in cases {
        let answer = server.get(target);
        assert_eq!(answer.status, status, "{target}: {}", answer.body);
        assert_eq!(answer.error_kind(), kind, "{target}");
        assert!(answer.body.contains(names), "{target}: {}", answer.body);
    }
}

/// A Connect Four position of nine stones (column digits, in their order) whose moves lead to
/// positions of ten, past the shipped books (the exact book's deepest positions have nine,
/// docs/solver.md "The exact book"): its hints need searches of tens of millions of nodes,
/// seconds.
fn unsolved_position() -> String {
    use tictactoe::connect4::{Book, Position};
    let moves = "641177164";
    let position: Position = moves.parse().unwrap();
    let hints = Book::shipped().move_scores(position);
    assert!(hints.iter().all(Option::is_none), "{moves}: {hints:?}");
    moves.to_owned()
}

/// A hints stream on a position the solver takes seconds over, read up to its first line and
/// held open.
fn slow_hints(server: &Server) -> TcpStream {
    let mut stream = server.connect();
    write!(
        stream,
        "GET /api/hints?game=connect-four&moves={} HTTP/1.1\r\nHost: x\r\n\r\n",
        unsolved_position()
    )
    .unwrap();
    let mut seen = Vec::new();
    let mut byte = [0u8];
    while !seen.ends_with(b"\"event\":\"start\"") {
        stream.read_exact(&mut byte).expect("the stream starts");
        seen.push(byte[0]);
    }
    stream
}

#[test]
fn a_full_pool_answers_503_and_a_dropped_stream_frees_its_slot() {
    let server = Server::start(&["--jobs", "1", "--queue", "0", "--hint-time", "60"]);
    let held = slow_hints(&server);
    let answer = server.get("/api/hints?game=tic-tac-toe");
    assert_eq!(answer.status, 503, "{}", answer.body);
    assert_eq!(answer.error_kind(), "busy");
    assert_eq!(answer.header("retry-after"), Some("1"));
    // Rule answers need no search: they are still served.
    assert_eq!(server.get("/api/position?game=connect-four").status, 200);
    // The client goes away: the search stops at its next watch call and the slot is free,
    // long before the minute of the time budget.
    drop(held);
    wait_for_a_free_slot(&server);
    // An engine move takes a slot too: alphabeta on gomoku searches for its whole think time
    // (1 s), and the slot is free again once the client is gone.
    let mut held = server.connect();
    write!(
        held,
        "GET /api/move?game=gomoku&moves=h8&level=hard HTTP/1.1\r\nHost: x\r\n\r\n"
    )
    .unwrap();
    // (A generous deadline: on a loaded machine the request can wait seconds for a thread.)
    let deadline = Instant::now() + Duration::from_secs(30);
    while server.get("/api/hints?game=tic-tac-toe").status != 503 {
        assert!(Instant::now() < deadline, "the move never took the slot");
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(held);
    wait_for_a_free_slot(&server);
}

/// Waits (20 s at most, far below the minute of the time budget) until a search is admitted.
fn wait_for_a_free_slot(server: &Server) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let answer = server.get("/api/hints?game=tic-tac-toe");
        if answer.status == 200 {
            break;
        }
        assert!(Instant::now() < deadline, "the slot is still held");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn the_time_budget_ends_a_search_with_unsolved_hints() {
    let server = Server::start(&["--hint-time", "1"]);
    let events = server.hints(&format!("game=connect-four&moves={}", unsolved_position()));
    let unsolved: Vec<&serde_json::Value> =
        events.iter().filter(|e| e["event"] == "unsolved").collect();
    assert!(!unsolved.is_empty(), "{events:?}");
    assert!(
        unsolved[0]["why"]
            .as_str()
            .unwrap()
            .contains("time budget of 1 s")
    );
    assert_eq!(events.last().unwrap()["event"], "done");
}

#[cfg(unix)]
#[test]
fn sigterm_stops_the_server_gracefully_even_during_a_search() {
    let mut server = Server::start(&[]);
    let mut held = slow_hints(&server);
    let begun = Instant::now();
    let killed = Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    // The stream ends with the search's unsolved moves and `done` (the shutdown waits for
    // it before it closes connections), then the process exits 0.
    let mut rest = String::new();
    held.read_to_string(&mut rest).expect("the stream ends");
    assert!(rest.contains("\"event\":\"done\""), "{rest}");
    assert!(rest.contains("the server is stopping"), "{rest}");
    let status = server.child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    assert!(begun.elapsed() < Duration::from_secs(10));
    let mut stderr = String::new();
    server
        .child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert!(stderr.contains("ttt serve: stopped"), "{stderr}");
}

#[test]
fn the_explainer_sets_a_cell_through_the_encodings() {
    let server = Server::start(&[]);
    let explained = server.json("/api/explain?board=X.O/..O/.X.&cell=4&mark=X");
    assert_eq!(explained["board"], "X.O.XO.X.");
    let set = &explained["set"];
    assert_eq!(set["base3_before"], 2692);
    // Cell 4 from empty to X adds 1 × 3^4.
    assert_eq!(set["base3_after"], 2692 + 81);
    assert_eq!(
        set["base4_after"],
        set["base4_before"].as_u64().unwrap() + (1 << 8)
    );
    assert_eq!(explained["codes"]["base3"], 2692 + 81);
    assert_eq!(explained["base3_bits"], format!("{:015b}", 2692 + 81));
    // An invalid grid: every rule it breaks, and no status.
    let explained = server.json("/api/explain?board=OOO/OO./...");
    assert_eq!(explained["valid"], false);
    assert_eq!(explained["status"], serde_json::Value::Null);
    assert!(explained["errors"].as_array().unwrap().len() >= 2);
    let paper = server.json("/api/paper");
    assert_eq!(paper["positions"], 5478);
    let wrong = paper["wrong"].as_array().unwrap();
    assert_eq!(wrong.len(), 95);
    let first = wrong[0]["board"].as_str().unwrap();
    let explained = server.json(&format!("/api/explain?board={first}"));
    assert_eq!(explained["paper"]["agrees"], false);
    assert_eq!(explained["valid"], true);
}

// ---------------------------------------------------------------- docs/web.md

/// Replaces the numbers that change from run to run (`nodes`, `elapsed_ms`) by `N`.
fn steady(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = ["\"nodes\":", "\"elapsed_ms\":"]
        .iter()
        .filter_map(|key| rest.find(key).map(|i| (i, key.len())))
        .min()
    {
        let (i, len) = at;
        out.push_str(&rest[..i + len]);
        rest = rest[i + len..].trim_start_matches(|c: char| c.is_ascii_digit());
        out.push('N');
    }
    out.push_str(rest);
    out
}

#[test]
fn the_examples_of_docs_web_md_are_real() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/web.md");
    let text = std::fs::read_to_string(&path).expect("docs/web.md");
    let bless = std::env::var_os("TTT_DOCS_BLESS").is_some();
    let server = Server::start(&[]);
    let lines: Vec<&str> = text.lines().collect();
    let mut out: Vec<String> = Vec::new();
    let mut failures = String::new();
    let mut checked = 0;
    let mut i = 0;
    while i < lines.len() {
        out.push(lines[i].to_owned());
        // A request: ```http with one `GET target` line, then a ```json block of its answer.
        if lines[i] == "```http" && i + 4 < lines.len() && lines[i + 3].starts_with("```json") {
            let target = lines[i + 1].strip_prefix("GET ").expect("GET target");
            let answer = server.get(target);
            let body = answer.body.trim_end().to_owned();
            out.push(lines[i + 1].to_owned());
            out.push(lines[i + 2].to_owned());
            out.push(lines[i + 3].to_owned());
            let mut end = i + 4;
            while lines[end] != "```" {
                end += 1;
            }
            let shown = lines[i + 4..end].join("\n");
            if steady(&shown) != steady(&body) {
                failures.push_str(&format!(
                    "web.md:{}: GET {target}\n  shown: {shown}\n  real:  {body}\n",
                    i + 2
                ));
            }
            out.push(body);
            out.push("```".to_owned());
            checked += 1;
            i = end + 1;
            continue;
        }
        i += 1;
    }
    assert!(checked >= 6, "docs/web.md shows the endpoints");
    if bless {
        std::fs::write(&path, out.join("\n") + "\n").expect("writes docs/web.md");
        return;
    }
    assert!(
        failures.is_empty(),
        "docs/web.md differs from the server (TTT_DOCS_BLESS=1 rewrites it):\n{failures}"
    );
}
