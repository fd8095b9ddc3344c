import Foundation

/// The demo service's data: the same on every start.
struct DemoData: Sendable {
    let posts: [Post]
    let comments: [Comment]
    let albums: [Album]
    let photos: [Photo]
    let authors: [Author]
    let breeds: [String: [String]]
    let repositories: [Repository]
    let users: [User]
    let items: [Item]

    static let shared = DemoData()

    private init() {
        posts = (1...100).map(Self.post)
        comments = (1...500).map { id in
            var text = TextGenerator(seed: 10_000 + id)
            let name = text.words(text.int(3...5)).lowercased()
            return Comment(postId: (id - 1) / 5 + 1, id: id, name: name,
                           email: "\(text.word()).\(text.word())@example.org", body: text.paragraph(length: 140))
        }
        albums = (1...100).map { id in
            var text = TextGenerator(seed: 20_000 + id)
            return Album(userId: (id - 1) / 10 + 1, id: id, title: text.words(text.int(2...5)).lowercased())
        }
        photos = (1...5000).map { id in
            var text = TextGenerator(seed: 30_000 + id)
            let color = String(format: "%06x", text.int(0...0xFFFFFF))
            return Photo(albumId: (id - 1) / 50 + 1, id: id, title: text.words(text.int(3...7)).lowercased(),
                         url: "https://images.example.org/600/\(color).png",
                         thumbnailUrl: "https://images.example.org/150/\(color).png")
        }
        authors = Self.authorRecords
        breeds = Self.breedList
        repositories = Self.repositoryRecords
        users = Self.userRecords
        items = Self.itemRecords
    }

    /// Post `id`, generated; `bigPosts` uses the same generator, so a post is about 364 bytes of JSON.
    static func post(_ id: Int) -> Post {
        var text = TextGenerator(seed: id)
        let title = text.words(text.int(4...8)).lowercased()
        var body = text.paragraph(length: 250)
        if body.count > 280 { body = String(body.prefix(280)) }
        return Post(userId: (id - 1) / 10 % 10 + 1, id: id, title: title, body: body)
    }

    private static let authorRecords: [Author] = {
        let people = [
            ("Leanne Graham", "Bret"), ("Ervin Howell", "Antonette"), ("Clementine Bauch", "Samantha"),
            ("Patricia Lebsack", "Karianne"), ("Chelsey Dietrich", "Kamren"), ("Dennis Schulist", "Leopoldo"),
            ("Kurtis Weissnat", "Elwyn"), ("Nicholas Runolfsdottir", "Maxime"), ("Glenna Reichert", "Delphine"),
            ("Clementina DuBuque", "Moriah"),
        ]
        let cities = ["Gwenborough", "Wisokyburgh", "McKenziehaven", "South Elvis", "Roscoeview",
                      "South Christy", "Howemouth", "Aliyaview", "Bartholomebury", "Lebsackbury"]
        return people.enumerated().map { index, person in
            var text = TextGenerator(seed: 40_000 + index)
            let id = index + 1
            return Author(
                id: id, name: person.0, username: person.1,
                email: "\(person.1.lowercased())@example.org",
                address: .init(street: "\(text.word().capitalized) Street \(text.int(1...999))",
                               suite: "Apt. \(text.int(100...999))", city: cities[index],
                               zipcode: String(format: "%05d-%04d", text.int(10000...99999), text.int(1000...9999))),
                phone: String(format: "1-%03d-%03d-%04d", text.int(200...999), text.int(200...999), text.int(0...9999)),
                website: "\(person.1.lowercased()).example.org",
                company: .init(name: "\(text.word().capitalized) \(text.word().capitalized) Ltd",
                               catchPhrase: text.words(4)))
        }
    }()

    private static let breedList: [String: [String]] = [
        "affenpinscher": [], "beagle": [], "bulldog": ["boston", "english", "french"],
        "collie": ["border"], "corgi": ["cardigan"], "dachshund": [], "hound": ["afghan", "basset", "blood", "english"],
        "husky": [], "labrador": [], "poodle": ["miniature", "standard", "toy"], "retriever": ["chesapeake", "golden"],
        "terrier": ["border", "irish", "scottish", "yorkshire"], "whippet": [],
    ]

    static func images(of breed: String) -> [String] {
        var text = TextGenerator(seed: breed.unicodeScalars.reduce(7) { $0 &* 31 &+ Int($1.value) })
        let count = text.int(4...12)
        return (0..<count).map { _ in "https://images.example.org/breeds/\(breed)/n\(text.int(1_000_000...9_999_999)).jpg" }
    }

    private static let repositoryRecords: [Repository] = {
        let seeds: [(String, String, String?, String?)] = [
            ("apple", "swift", "C++", "The Swift Programming Language"),
            ("apple", "swift-nio", "Swift", "Event-driven network application framework for high performance protocol servers & clients"),
            ("apple", "swift-argument-parser", "Swift", "Straightforward, type-safe argument parsing for Swift"),
            ("apple", "swift-collections", "Swift", "Commonly used data structures for Swift"),
            ("apple", "swift-http-types", "Swift", "Version-independent HTTP currency types for Swift"),
            ("swift-server", "async-http-client", "Swift", "HTTP client library built on SwiftNIO"),
            ("hummingbird-project", "hummingbird", "Swift", "Lightweight, flexible HTTP server framework written in Swift"),
            ("vapor", "vapor", "Swift", "A server-side Swift HTTP web framework"),
            ("kean", "Get", "Swift", "Web API client built using async/await"),
            ("kean", "Nuke", "Swift", "Image loading system"),
            ("Alamofire", "Alamofire", "Swift", "Elegant HTTP Networking in Swift"),
            ("Moya", "Moya", "Swift", "Network abstraction layer written in Swift"),
            ("onevcat", "Kingfisher", "Swift", "A lightweight, pure-Swift library for downloading and caching images"),
            ("pointfreeco", "swift-composable-architecture", "Swift", "A library for building applications in a consistent and understandable way"),
            ("pointfreeco", "swift-snapshot-testing", "Swift", "Delightful snapshot testing for Swift"),
            ("realm", "SwiftLint", "Swift", "A tool to enforce Swift style and conventions"),
            ("nicklockwood", "SwiftFormat", "Swift", "A command-line tool and Xcode extension for formatting Swift code"),
            ("ReactiveX", "RxSwift", "Swift", "Reactive Programming in Swift"),
            ("SwiftyJSON", "SwiftyJSON", "Swift", "The better way to deal with JSON data in Swift"),
            ("SnapKit", "SnapKit", "Swift", "A Swift Autolayout DSL for iOS & OS X"),
            ("jpsim", "Yams", "Swift", "A sweet and swifty YAML parser"),
            ("groue", "GRDB.swift", "Swift", "A toolkit for SQLite databases, with a focus on application development"),
            ("stephencelis", "SQLite.swift", "Swift", "A type-safe, Swift-language layer over SQLite3"),
            ("swiftlang", "swift-syntax", "Swift", "A set of Swift libraries for parsing, inspecting, generating, and transforming Swift source code"),
            ("swiftlang", "swift-format", "Swift", "Formatting technology for Swift source code"),
            ("ilyapuchka", "SwiftNetworking", "Swift", "Lightweight typed networking"),
            ("JohnSundell", "Publish", "Swift", "A static site generator for Swift developers"),
            ("JohnSundell", "Files", "Swift", "A nicer way to handle files & folders in Swift"),
            ("mxcl", "PromiseKit", "Swift", "Promises for Swift & ObjC"),
            ("Quick", "Nimble", "Swift", "A Matcher Framework for Swift and Objective-C"),
            ("httpie", "cli", "Python", "Modern, user-friendly command-line HTTP client for the API era"),
            ("psf", "requests", "Python", "A simple, yet elegant, HTTP library"),
            ("curl", "curl", "C", "A command line tool and library for transferring data with URL syntax"),
            ("jqlang", "jq", "C", "Command-line JSON processor"),
            ("typicode", "json-server", "JavaScript", "Get a full fake REST API with zero coding"),
            ("octocat", "Hello-World", nil, "My first repository on GitHub!"),
            ("octocat", "Spoon-Knife", "HTML", "This repo is for demonstration purposes only."),
            ("swift-typist", "typist", "Swift", "A typed API shell for Swift"),
            ("sample", "empty-swift-notes", nil, nil),
            ("dogceo", "dog-api", "PHP", "The internet's biggest collection of open source dog pictures"),
        ]
        return seeds.enumerated().map { index, seed in
            var text = TextGenerator(seed: 50_000 + index)
            let ownerID = 1_000 + seed.0.unicodeScalars.reduce(0) { ($0 &* 17 &+ Int($1.value)) % 900_000 }
            return Repository(id: 100_000 + index * 7, name: seed.1, fullName: "\(seed.0)/\(seed.1)",
                              owner: Owner(login: seed.0, id: ownerID),
                              stargazersCount: text.int(10...70_000), language: seed.2, description: seed.3)
        }
    }()

    private static let userRecords: [User] = [
        User(id: UUID(uuidString: "D4F28578-51BD-40F4-A8BD-387668E06EF8") ?? UUID(), name: "Ada Lovelace",
             twitterHandle: "ada", gitHubUsername: "ada-lovelace"),
        User(id: UUID(uuidString: "6B1F0A8E-1F7C-4C57-9C0B-3E2A8E5C1D01") ?? UUID(), name: "Grace Hopper",
             twitterHandle: "grace", gitHubUsername: "ghopper"),
        User(id: UUID(uuidString: "0C8E2F3A-9D4B-4E6A-8F1C-2B7D5A9E3C02") ?? UUID(), name: "Alan Turing",
             twitterHandle: "turing", gitHubUsername: "aturing"),
        User(id: UUID(uuidString: "A7D3C1B9-5E2F-4A8D-B6C4-9F1E3D7A5B03") ?? UUID(), name: "Katherine Johnson",
             twitterHandle: "kjohnson", gitHubUsername: "katherine-j"),
    ]

    private static let itemRecords: [Item] = {
        let names: [(String, [String])] = [
            ("Swift Programming Guide", ["swift", "book", "featured"]), ("Concurrency by Tutorial", ["swift", "book"]),
            ("Typed Networking Workshop", ["swift", "course", "featured"]), ("Mechanical Keyboard", ["hardware"]),
            ("Swift Sticker Pack", ["swift", "merch", "featured"]), ("Server-Side Swift", ["swift", "book"]),
            ("USB-C Hub", ["hardware"]), ("Coffee Mug: It Compiles", ["merch", "featured"]),
            ("Testing in Swift", ["swift", "book"]), ("Noise-Cancelling Headphones", ["hardware", "featured"]),
            ("Swift T-Shirt", ["swift", "merch"]), ("API Design Handbook", ["book"]),
        ]
        return names.enumerated().map { index, item in
            var text = TextGenerator(seed: 60_000 + index)
            return Item(id: index + 1, title: item.0, price: Double(text.int(499...9999)) / 100, tags: item.1)
        }
    }()
}
