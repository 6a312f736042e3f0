//! An outside engine's process: a child program with its standard input and output as lines of
//! text. A reader thread forwards each line of the child's output to a channel, so that every
//! read has a deadline: a child that stops answering is a [`ProcessError::Timeout`], never a
//! blocked referee. The end of the output (the child exited or closed it) is
//! [`ProcessError::Closed`], with the exit status and the last lines of its standard error.
//! Dropping the process kills the child and reaps it.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, unbounded};

/// The lines of standard error kept for the message of a crash.
const STDERR_LINES: usize = 4;

/// How long a closed output waits for the child's exit status.
const EXIT_WAIT: Duration = Duration::from_millis(200);

/// What went wrong talking to a child.
#[derive(Debug, thiserror::Error)]
pub enum ProcessError {
    /// The program could not be started.
    #[error("cannot start '{program}': {source}")]
    Spawn {
        /// The program.
        program: String,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The child's output ended (it exited, crashed or closed it).
    #[error("its output ended ({status}){stderr}")]
    Closed {
        /// The exit status in words (`exit status 1`, `killed by signal 11`, `still running`).
        status: String,
        /// The last lines of its standard error, with a leading `; stderr: `, or empty.
        stderr: String,
    },
    /// Nothing arrived before the deadline.
    #[error("no answer within {:.2} s", .0.as_secs_f64())]
    Timeout(Duration),
}

/// A running child with line I/O.
pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// The exit status, once known.
    exited: Option<ExitStatus>,
}

impl Process {
    /// Starts `program` with `args`, its standard input and output piped, its standard error
    /// read by a thread that keeps the last lines.
    ///
    /// # Errors
    /// [`ProcessError::Spawn`] when the program cannot be started.
    pub fn spawn(program: &str, args: &[String]) -> Result<Process, ProcessError> {
        let spawn_error = |source| ProcessError::Spawn {
            program: program.to_string(),
            source,
        };
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(spawn_error)?;
        let stdin = child.stdin.take();
        let (tx, lines) = unbounded();
        if let Some(out) = child.stdout.take() {
            std::thread::Builder::new()
                .name("engine stdout".into())
                .spawn(move || {
                    for line in BufReader::new(out).lines() {
                        let Ok(line) = line else { break };
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                })
                .map_err(spawn_error)?;
        }
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        if let Some(err) = child.stderr.take() {
            let kept = Arc::clone(&stderr);
            std::thread::Builder::new()
                .name("engine stderr".into())
                .spawn(move || keep_tail(err, &kept))
                .map_err(spawn_error)?;
        }
        Ok(Process {
            child,
            stdin,
            lines,
            stderr,
            exited: None,
        })
    }

    /// Sends one line. A child that no longer reads is [`ProcessError::Closed`].
    ///
    /// # Errors
    /// When the line cannot be written.
    pub fn send(&mut self, line: &str) -> Result<(), ProcessError> {
        let written = match &mut self.stdin {
            Some(stdin) => writeln!(stdin, "{line}").and_then(|()| stdin.flush()),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        };
        if written.is_err() {
            self.stdin = None;
            return Err(self.closed());
        }
        Ok(())
    }

    /// The next line of output, waiting until `deadline` at most.
    ///
    /// # Errors
    /// [`ProcessError::Timeout`] at the deadline, [`ProcessError::Closed`] at the end of the
    /// output.
    pub fn line_by(&mut self, deadline: Instant) -> Result<String, ProcessError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_deadline(deadline) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(ProcessError::Timeout(wait)),
            Err(RecvTimeoutError::Disconnected) => Err(self.closed()),
        }
    }

    /// Sends `line` (a quit command) and gives the child `wait` to exit before it is killed.
    pub fn quit(&mut self, line: &str, wait: Duration) {
        if self.send(line).is_err() {
            return;
        }
        self.stdin = None;
        let until = Instant::now() + wait;
        while Instant::now() < until {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    self.exited = Some(status);
                    return;
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                Err(_) => return,
            }
        }
    }

    /// The error of a child whose output ended: its exit status (waiting briefly for it) and
    /// the tail of its standard error.
    fn closed(&mut self) -> ProcessError {
        let until = Instant::now() + EXIT_WAIT;
        while self.exited.is_none() && Instant::now() < until {
            match self.child.try_wait() {
                Ok(Some(status)) => self.exited = Some(status),
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                Err(_) => break,
            }
        }
        let status = match self.exited {
            Some(s) => describe(s),
            None => "still running".to_string(),
        };
        // The stderr thread may still be reading the child's last words.
        std::thread::sleep(Duration::from_millis(20));
        let tail = self
            .stderr
            .lock()
            .map(|t| t.iter().cloned().collect::<Vec<_>>().join(" | "))
            .unwrap_or_default();
        ProcessError::Closed {
            status,
            stderr: if tail.is_empty() {
                String::new()
            } else {
                format!("; stderr: {tail}")
            },
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        // Closing its input first lets a well-behaved child end by itself; a hung one is killed.
        self.stdin = None;
        if self.exited.is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// An exit status in words.
fn describe(status: ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("exit status {code}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("killed by signal {signal}");
        }
    }
    status.to_string()
}

/// Reads `from` to its end, keeping its last [`STDERR_LINES`] non-empty lines in `kept`.
fn keep_tail(from: impl Read, kept: &Mutex<VecDeque<String>>) {
    for line in BufReader::new(from).lines() {
        let Ok(line) = line else { break };
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let Ok(mut k) = kept.lock() else { break };
        if k.len() == STDERR_LINES {
            k.pop_front();
        }
        k.push_back(line.chars().take(200).collect());
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn sh(script: &str) -> Process {
        Process::spawn("sh", &["-c".to_string(), script.to_string()]).unwrap()
    }

    fn soon() -> Instant {
        Instant::now() + Duration::from_secs(5)
    }

    #[test]
    fn lines_go_both_ways() {
        let mut p = sh("while read l; do echo \"got $l\"; done");
        p.send("one").unwrap();
        p.send("two").unwrap();
        assert_eq!(p.line_by(soon()).unwrap(), "got one");
        assert_eq!(p.line_by(soon()).unwrap(), "got two");
    }

    #[test]
    fn a_silent_child_times_out_and_an_exited_one_is_closed_with_its_status() {
        let mut p = sh("read l; sleep 10");
        p.send("x").unwrap();
        let start = Instant::now();
        let e = p
            .line_by(Instant::now() + Duration::from_millis(100))
            .unwrap_err();
        assert!(matches!(e, ProcessError::Timeout(_)), "{e}");
        assert!(start.elapsed() < Duration::from_secs(2));
        let mut p = sh("echo last words >&2; exit 3");
        let e = p.line_by(soon()).unwrap_err();
        let text = e.to_string();
        assert!(text.contains("exit status 3"), "{text}");
        assert!(text.contains("last words"), "{text}");
        // Writing to a child that is gone is the same error.
        let e = (0..50).find_map(|_| p.send("more").err()).unwrap();
        assert!(matches!(e, ProcessError::Closed { .. }), "{e}");
    }

    #[test]
    fn a_missing_program_cannot_be_started() {
        let e = Process::spawn("/no/such/engine", &[]).err().unwrap();
        assert!(
            e.to_string().contains("cannot start '/no/such/engine'"),
            "{e}"
        );
    }
}
