// Lesson 0: what a typed design must refuse (do not edit): the breed list asked for images.

func lesson0Misuse(service: DogService) async throws -> Int {
    let images: BreedImages = try await service.fetch(.allBreeds)  // expected-error: cannot convert value of type 'Breeds' to specified type 'BreedImages'
    return images.message.count
}
