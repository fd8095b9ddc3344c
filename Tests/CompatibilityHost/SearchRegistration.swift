// A registration as a host writes it for a search of twelve optional values (Typist 0.12.1's README
// spelling: the query built in a `let`, then the endpoint returned — the same query as the
// closure's only expression exhausts Swift's type checker). It must keep compiling with every later
// Typist; `CompatibilityHostTests` builds it. Keep this file as it is.
import Foundation
import TypedAPI
import Typist

struct SearchPage: Decodable, Sendable {
    let total: Int
}

/// A query item for each value that is there.
func queryItems(_ items: (String, String?)...) -> [URLQueryItem] {
    items.compactMap { name, value in value.map { URLQueryItem(name: name, value: $0) } }
}

/// The search, registered with twelve optional parameters.
let searchRegistration = Register(
    "search", summary: "Search the catalogue",
    Parameter<String?>("text"), Parameter<Int?>("size"), Parameter<Int?>("page"), Parameter<Int?>("yearFrom"),
    Parameter<Int?>("yearTo"), Parameter<Bool?>("available"), Parameter<String?>("language"), Parameter<Int?>("minRating"),
    Parameter<Double?>("maxPrice"), Parameter<String?>("author"), Parameter<Bool?>("ebook"), Parameter<Int?>("pages")
) { text, size, page, yearFrom, yearTo, available, language, minRating, maxPrice, author, ebook, pages in
    let query = queryItems(("q", text), ("size", size.map(String.init)), ("page", page.map(String.init)),
                           ("year_from", yearFrom.map(String.init)), ("year_to", yearTo.map(String.init)),
                           ("available", available.map(String.init)), ("language", language),
                           ("min_rating", minRating.map(String.init)), ("max_price", maxPrice.map(String.init(describing:))),
                           ("author", author), ("ebook", ebook.map(String.init)), ("pages", pages.map(String.init)))
    return Endpoint<Public, SearchPage>(.get(query: query), path: "/search")
}
