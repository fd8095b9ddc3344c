// Registrations of every form a host writes, with twelve parameters of every kind: compiled in
// the test target, and alone (RegistrationFormsTests) under a small type-checker budget. Only
// `import Typist`, as a host writes it; public where `:swift` output, compiled apart, uses it.
import Foundation
import Typist

public struct FormBook: Decodable, Sendable { public let id: Int; public let title: String }
public enum FormSort: String, CaseIterable, Sendable { case year, title }
extension FormSort: ScriptArgument {}

/// A host's own factory, in the seed's pattern.
extension Endpoint where Kind == Public, Response == [FormBook] {
    public static func formBooks(author: String?, title: String?, yearFrom: Int?, yearTo: Int?, language: String?, available: Bool?,
                          sort: FormSort?, sortDesc: FormSort?, publisher: String?, size: Int, page: Int, tags: [String]) -> Self {
        var query: [URLQueryItem] = []
        if let author { query.append(URLQueryItem(name: "author", value: author)) }
        if let sort { query.append(URLQueryItem(name: "_sort", value: sort.rawValue)) }
        query.append(URLQueryItem(name: "_size", value: String(size)))
        query += tags.map { URLQueryItem(name: "tag", value: $0) }
        _ = (title, yearFrom, yearTo, language, available, sortDesc, publisher, page)
        return Endpoint(.get(query: query), path: "/books.json")
    }
}

/// A host's query helper, as hosts write one: an item for each value that is there.
func q(_ items: (String, String?)...) -> [URLQueryItem] {
    items.compactMap { name, value in value.map { URLQueryItem(name: name, value: $0) } }
}

/// A named function that builds the endpoint.
public func makeFormBooks(author: String?, title: String?, yearFrom: Int?, yearTo: Int?, language: String?, available: Bool?,
                   sort: FormSort?, sortDesc: FormSort?, publisher: String?, size: Int, page: Int, tags: [String]) -> Endpoint<Public, [FormBook]> {
    .formBooks(author: author, title: title, yearFrom: yearFrom, yearTo: yearTo, language: language, available: available,
               sort: sort, sortDesc: sortDesc, publisher: publisher, size: size, page: page, tags: tags)
}

enum RegistrationForms {
    static func registry() throws -> EndpointRegistry {
        try EndpointRegistry {
            Register("formBooks", summary: "A factory of the endpoint's name",
                     Parameter<String?>("author"), Parameter<String?>("title"), Parameter<Int?>("yearFrom"), Parameter<Int?>("yearTo"),
                     Parameter<String?>("language"), Parameter<Bool?>("available"), Parameter<FormSort?>("sort"),
                     Parameter<FormSort?>("sortDesc"), Parameter<String?>("publisher"), Parameter<Int>("size", default: 20),
                     Parameter<Int>("page", default: 1), Parameter<[String]>("tags", default: [])) { author, title, yearFrom, yearTo, language, available, sort, sortDesc, publisher, size, page, tags in
                Endpoint.formBooks(author: author, title: title, yearFrom: yearFrom, yearTo: yearTo, language: language, available: available,
                                   sort: sort, sortDesc: sortDesc, publisher: publisher, size: size, page: page, tags: tags)
            }
            Register("inlineBooks", summary: "An inline closure of several statements",
                     Parameter<String?>("author"), Parameter<String?>("title"), Parameter<Int?>("yearFrom"), Parameter<Int?>("yearTo"),
                     Parameter<String?>("language"), Parameter<Bool?>("available"), Parameter<FormSort?>("sort"),
                     Parameter<FormSort?>("sortDesc"), Parameter<String?>("publisher"), Parameter<Int>("size", default: 20),
                     Parameter<Int>("page", default: 1), Parameter<Set<Int>>("ids", default: [])) { author, title, yearFrom, yearTo, language, available, sort, sortDesc, publisher, size, page, ids in
                var query: [URLQueryItem] = []
                if let author { query.append(URLQueryItem(name: "author", value: author)) }
                if let title { query.append(URLQueryItem(name: "title", value: title)) }
                if let yearFrom { query.append(URLQueryItem(name: "year_from", value: String(yearFrom))) }
                if let yearTo { query.append(URLQueryItem(name: "year_to", value: String(yearTo))) }
                if let language { query.append(URLQueryItem(name: "language", value: language)) }
                if let available { query.append(URLQueryItem(name: "available", value: available ? "1" : "0")) }
                if let sort { query.append(URLQueryItem(name: "_sort", value: sort.rawValue)) }
                if let sortDesc { query.append(URLQueryItem(name: "_sort_desc", value: sortDesc.rawValue)) }
                if let publisher { query.append(URLQueryItem(name: "publisher", value: publisher)) }
                query.append(URLQueryItem(name: "_size", value: String(size)))
                query.append(URLQueryItem(name: "page", value: String(page)))
                query += ids.sorted().map { URLQueryItem(name: "id", value: String($0)) }
                return Endpoint<Public, [FormBook]>(.get(query: query), path: "/books.json")
            }
            Register("expressionBooks", summary: "An inline closure of one expression",
                     Parameter<String?>("author"), Parameter<String?>("title"), Parameter<Int?>("yearFrom"), Parameter<Int?>("yearTo"),
                     Parameter<String?>("language"), Parameter<Bool?>("available"), Parameter<String?>("sort"),
                     Parameter<String?>("sortDesc"), Parameter<String?>("publisher"), Parameter<Int>("size", default: 20),
                     Parameter<Int>("page", default: 1), Parameter<[String: String]>("filters", default: [:])) { author, title, yearFrom, yearTo, language, available, sort, sortDesc, publisher, size, page, filters in
                Endpoint<Public, [FormBook]>(.get(query: [
                    author.map { URLQueryItem(name: "author", value: $0) },
                    title.map { URLQueryItem(name: "title", value: $0) },
                    yearFrom.map { URLQueryItem(name: "year_from", value: String($0)) },
                    yearTo.map { URLQueryItem(name: "year_to", value: String($0)) },
                    language.map { URLQueryItem(name: "language", value: $0) },
                    available.map { URLQueryItem(name: "available", value: $0 ? "1" : "0") },
                    sort.map { URLQueryItem(name: "_sort", value: $0) },
                    sortDesc.map { URLQueryItem(name: "_sort_desc", value: $0) },
                    publisher.map { URLQueryItem(name: "publisher", value: $0) },
                    URLQueryItem(name: "_size", value: String(size)),
                    URLQueryItem(name: "page", value: String(page)),
                ].compactMap { $0 } + filters.keys.sorted().map { URLQueryItem(name: $0, value: filters[$0]) }), path: "/books.json")
            }
            Register("namedBooks", summary: "A closure that calls a named function",
                     Parameter<String?>("author"), Parameter<String?>("title"), Parameter<Int?>("yearFrom"), Parameter<Int?>("yearTo"),
                     Parameter<String?>("language"), Parameter<Bool?>("available"), Parameter<FormSort?>("sort"),
                     Parameter<FormSort?>("sortDesc"), Parameter<String?>("publisher"), Parameter<Int>("size", default: 20),
                     Parameter<Int>("page", default: 1), Parameter<[String]>("tags", default: [])) { author, title, yearFrom, yearTo, language, available, sort, sortDesc, publisher, size, page, tags in
                makeFormBooks(author: author, title: title, yearFrom: yearFrom, yearTo: yearTo, language: language, available: available,
                              sort: sort, sortDesc: sortDesc, publisher: publisher, size: size, page: page, tags: tags)
            }
            // Twelve optional parameters and a query built in one expression of twelve overloaded
            // `String.init`s: as the closure's only expression it exhausts Swift's type checker
            // (it is solved with Register's parameter pack); as a `let` before the `return`, it is
            // checked on its own once the parameters' types are known — the README's spelling.
            Register("searchBooks", summary: "A query of twelve optional values, built before the return",
                     Parameter<String?>("text"), Parameter<Int?>("size"), Parameter<Int?>("page"), Parameter<Int?>("yearFrom"),
                     Parameter<Int?>("yearTo"), Parameter<Bool?>("available"), Parameter<String?>("language"), Parameter<Int?>("minRating"),
                     Parameter<Double?>("maxPrice"), Parameter<String?>("author"), Parameter<Bool?>("ebook"), Parameter<Int?>("pages")) { text, size, page, yearFrom, yearTo, available, language, minRating, maxPrice, author, ebook, pages in
                let query = q(("q", text), ("size", size.map(String.init)), ("page", page.map(String.init)),
                              ("year_from", yearFrom.map(String.init)), ("year_to", yearTo.map(String.init)),
                              ("available", available.map(String.init)), ("language", language),
                              ("min_rating", minRating.map(String.init)), ("max_price", maxPrice.map(String.init(describing:))),
                              ("author", author), ("ebook", ebook.map(String.init)), ("pages", pages.map(String.init)))
                return Endpoint<Public, [FormBook]>(.get(query: query), path: "/search")
            }
            Register("functionBooks", summary: "A function passed as the endpoint",
                     Parameter<String?>("author"), Parameter<String?>("title"), Parameter<Int?>("yearFrom"), Parameter<Int?>("yearTo"),
                     Parameter<String?>("language"), Parameter<Bool?>("available"), Parameter<FormSort?>("sort"),
                     Parameter<FormSort?>("sortDesc"), Parameter<String?>("publisher"), Parameter<Int>("size", default: 20),
                     Parameter<Int>("page", default: 1), Parameter<[String]>("tags", default: []), endpoint: makeFormBooks)
        }
    }
}
