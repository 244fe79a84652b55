//! The listener: TCP connections whose request targets reach the HTTP layer as ASCII.
//!
//! The HTTP layer (hyper and the `http` crate) refuses a request whose target holds raw bytes
//! outside printable ASCII (`GET /api/été`, or bytes that are no UTF-8 at all) with a bare
//! `400` and no body, before any handler runs: no JSON error, as every other bad request gets.
//! So each connection's bytes are read through [`Escaped`], which percent-encodes such bytes of
//! a request target (`é` becomes `%C3%A9`, `\xff` becomes `%FF`) and passes everything else
//! through. The target then means what it meant, and the router answers it: an unknown path
//! with `404 not-found`, a query that is no UTF-8 once decoded with `400 bad-query`, both JSON
//! and naming the problem.
//!
//! Only request lines are rewritten: the reader follows the framing (request line, header
//! lines to the blank line, then `Content-Length` bytes of body passed as they are; a chunked
//! body ends the rewriting for the rest of the connection, since the API refuses bodies).

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

/// A TCP listener whose connections are [`Escaped`].
pub struct EscapingListener(pub TcpListener);

impl axum::serve::Listener for EscapingListener {
    type Io = Escaped<TcpStream>;
    type Addr = std::net::SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        let (stream, address) = axum::serve::Listener::accept(&mut self.0).await;
        (Escaped::new(stream), address)
    }

    fn local_addr(&self) -> io::Result<Self::Addr> {
        self.0.local_addr()
    }
}

/// Where the reader is in a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    /// The method, before the target.
    Method,
    /// The target: bytes outside printable ASCII are escaped.
    Target,
    /// The rest of the request line.
    Version,
    /// Header lines, up to the blank line.
    Headers,
    /// A body of this many bytes still to come.
    Body(u64),
    /// Everything as it comes (after a chunked body).
    Raw,
}

/// A byte stream whose request targets are made ASCII (see the [module](self) doc).
pub struct Escaped<S> {
    inner: S,
    part: Part,
    /// The header line being read (its first bytes, lower case), for `Content-Length` and
    /// `Transfer-Encoding`.
    line: Vec<u8>,
    /// The body length and whether it is chunked, from the headers read so far.
    length: u64,
    chunked: bool,
    /// Rewritten bytes not yet handed to the reader.
    pending: Vec<u8>,
    taken: usize,
}

/// The most of a header line kept to recognise it.
const LINE_KEPT: usize = 64;

impl<S> Escaped<S> {
    pub fn new(inner: S) -> Escaped<S> {
        Escaped {
            inner,
            part: Part::Method,
            line: Vec::new(),
            length: 0,
            chunked: false,
            pending: Vec::new(),
            taken: 0,
        }
    }

    /// Appends `bytes`, rewritten, to `pending`.
    fn rewrite(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            match self.part {
                Part::Method => {
                    self.pending.push(byte);
                    if byte == b' ' {
                        self.part = Part::Target;
                    } else if byte == b'\n' {
                        // An empty line between requests, or a line without a target: hyper
                        // reads it as it is.
                        self.part = Part::Method;
                    }
                }
                Part::Target => {
                    if byte == b' ' {
                        self.part = Part::Version;
                        self.pending.push(byte);
                    } else if byte == b'\n' {
                        self.start_headers();
                        self.pending.push(byte);
                    } else if byte == b'\r' || (byte.is_ascii_graphic() && !refused(byte)) {
                        self.pending.push(byte);
                    } else {
                        self.pending
                            .extend_from_slice(format!("%{byte:02X}").as_bytes());
                    }
                }
                Part::Version => {
                    self.pending.push(byte);
                    if byte == b'\n' {
                        self.start_headers();
                    }
                }
                Part::Headers => {
                    self.pending.push(byte);
                    if byte == b'\n' {
                        self.end_header_line();
                    } else if byte != b'\r' && self.line.len() < LINE_KEPT {
                        self.line.push(byte.to_ascii_lowercase());
                    }
                }
                Part::Body(left) => {
                    self.pending.push(byte);
                    self.part = if left > 1 {
                        Part::Body(left - 1)
                    } else {
                        Part::Method
                    };
                }
                Part::Raw => self.pending.push(byte),
            }
        }
    }

    fn start_headers(&mut self) {
        self.part = Part::Headers;
        self.line.clear();
        self.length = 0;
        self.chunked = false;
    }

    fn end_header_line(&mut self) {
        if self.line.is_empty() {
            self.part = if self.chunked {
                Part::Raw
            } else if self.length > 0 {
                Part::Body(self.length)
            } else {
                Part::Method
            };
            return;
        }
        if let Some(value) = self.line.strip_prefix(b"content-length:") {
            self.length = std::str::from_utf8(value)
                .ok()
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(0);
        } else if self.line.starts_with(b"transfer-encoding:") {
            self.chunked = true;
        }
        self.line.clear();
    }
}

/// Printable ASCII that the `http` crate refuses in a target.
fn refused(byte: u8) -> bool {
    matches!(
        byte,
        b'"' | b'<' | b'>' | b'\\' | b'^' | b'`' | b'{' | b'|' | b'}'
    )
}

impl<S: AsyncRead + Unpin> AsyncRead for Escaped<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.taken == this.pending.len() {
            this.pending.clear();
            this.taken = 0;
            let mut raw = [0u8; 4096];
            let mut read = ReadBuf::new(&mut raw);
            match Pin::new(&mut this.inner).poll_read(cx, &mut read) {
                Poll::Ready(Ok(())) => {}
                other => return other,
            }
            if read.filled().is_empty() {
                // The end of the stream.
                return Poll::Ready(Ok(()));
            }
            let filled = read.filled().to_vec();
            this.rewrite(&filled);
        }
        let n = buf.remaining().min(this.pending.len() - this.taken);
        buf.put_slice(&this.pending[this.taken..this.taken + n]);
        this.taken += n;
        Poll::Ready(Ok(()))
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Escaped<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewritten(chunks: &[&[u8]]) -> Vec<u8> {
        let mut escaped = Escaped::new(());
        for chunk in chunks {
            escaped.rewrite(chunk);
        }
        escaped.pending
    }

    #[test]
    fn targets_become_ascii_and_nothing_else_changes() {
        let request = b"GET /api/\xc3\xa9t\xc3\xa9?q=\xff{ HTTP/1.1\r\nX-Name: caf\xc3\xa9\r\n\r\n";
        assert_eq!(
            rewritten(&[request]),
            b"GET /api/%C3%A9t%C3%A9?q=%FF%7B HTTP/1.1\r\nX-Name: caf\xc3\xa9\r\n\r\n"
        );
        // Split anywhere, the same.
        let (a, b) = request.split_at(11);
        assert_eq!(rewritten(&[a, b]), rewritten(&[request]));
        // A body of Content-Length bytes passes as it is, then the next request is rewritten.
        let two =
            b"POST /\xe9 HTTP/1.1\r\nContent-Length: 3\r\n\r\n\xe9 \xe9GET /\xe9 HTTP/1.1\r\n\r\n";
        assert_eq!(
            rewritten(&[two]),
            b"POST /%E9 HTTP/1.1\r\nContent-Length: 3\r\n\r\n\xe9 \xe9GET /%E9 HTTP/1.1\r\n\r\n"
        );
        // After a chunked body, nothing more is touched.
        let chunked = b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n \r\n0\r\n\r\nGET /\xe9 HTTP/1.1\r\n\r\n";
        assert_eq!(rewritten(&[chunked]), chunked.to_vec());
    }
}
