@_exported import Typist
import TypedAPICurl

extension TransportOption {
    /// libcurl, the fastest: one engine thread for the process, which also runs the session, so
    /// a call and its resumption never switch threads. Needs libcurl's headers to build
    /// (`libcurl4-openssl-dev` on Debian and Ubuntu).
    public static var curl: TransportOption {
        TransportOption(name: "curl", executor: { CurlTransport.executor }) { CurlTransport() }
    }
}
