// Lesson 0: what any design must allow (do not edit).

func lesson0Usage(service: DogService) async throws -> Int {
    let breeds: Breeds = try await service.fetch(.allBreeds)
    let beagles: BreedImages = try await service.fetch(.images(of: "beagle"))
    return breeds.message.count + beagles.message.count
}
