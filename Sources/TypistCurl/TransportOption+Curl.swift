@_exported import Typist
import TypedAPICurl

extension TransportOption {
    /// libcurl, the fastest: each session gets an engine thread of its own, which also runs the
    /// session, so a call and its resumption never switch threads, and a script computing for
    /// long holds up no other session's calls. Needs libcurl's headers to build
    /// (`libcurl4-openssl-dev` on Debian and Ubuntu).
    public static var curl: TransportOption {
        TransportOption(name: "curl", withSession: { session in
            await CurlTransport.withOwnEngine { transport, executor in await session(transport, executor) }
        })
    }
}
